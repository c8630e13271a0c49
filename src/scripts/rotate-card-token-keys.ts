import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../modules/tw-saved-card"

/**
 * Re-encrypts every saved card's token under the active key
 * (`activeTokenKeyId`), after a new key was added and made active. Run it with
 * the store's own configuration:
 *
 *     npx medusa exec ./node_modules/medusa-payment-tw/.medusa/server/src/scripts/rotate-card-token-keys.js
 *
 * (in this repository: `npx medusa exec ./src/scripts/rotate-card-token-keys.ts`).
 * Safe to run again, and while the store runs: a token opens under its old key
 * until it is moved, and a card deleted meanwhile never gets its token back
 * (the module writes each value only onto its row as it was read). Remove an
 * old key only once this reports nothing left.
 */
export default async function rotateCardTokenKeys({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const module = container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
  const result = await module.reencryptTokens()
  logger.info(`medusa-payment-tw: ${result.reencrypted} saved card token(s) re-encrypted under key "${module.activeTokenKeyId}"`)
  if (result.failed.length) {
    logger.error(
      `medusa-payment-tw: ${result.failed.length} token(s) did not open and stay as they are (is their old key still in tokenKeys?): ${result.failed.slice(0, 20).join(", ")}${result.failed.length > 20 ? ", …" : ""}`
    )
    process.exitCode = 1
  }
  return result
}

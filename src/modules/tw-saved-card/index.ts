import { Module } from "@medusajs/framework/utils"
import { tokenCipherFromOptions } from "./options"
import TwSavedCardModuleService from "./service"

/** Container key and link-table prefix of the saved-cards module. */
export const TW_SAVED_CARD_MODULE = "tw_saved_card"

/** Checks the token keys when the store boots, not at the first card: a wrong key stops the boot. */
async function checkTokenKeys({ options }: { options?: unknown }) {
  tokenCipherFromOptions(options)
}

export default Module(TW_SAVED_CARD_MODULE, { service: TwSavedCardModuleService, loaders: [checkTokenKeys] })
export { TwSavedCardModuleService }
export type { SavedCardOptions } from "./options"

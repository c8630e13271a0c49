import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../lib/log"
import { TW_SAVED_CARD_MODULE } from "../modules/tw-saved-card"
import { pluginProvider } from "../providers/plugin-providers"
import { CHARGE_CODES, CHARGE_STALE_MS } from "../workflows/saved-cards/decisions/charge-decision"
import { savedCardModule } from "../saved-cards/charge-rows"
import { settleTwSavedCardChargeWorkflow } from "../workflows/saved-cards/settle-tw-saved-card-charge"

/** Charges older than this are not read again: the sweep's window, longer than a charge's outcome takes to show. */
const SETTLE_WINDOW_MS = 48 * 3_600_000
/** Rows read per run, at most. */
const MAX_PER_RUN = 50

export interface SettleOptions {
  /** Also for providers whose scheduled reconciliation is off (an operator's one-off run, tests). */
  force?: boolean
  now?: number
}

/**
 * The reconciliation's pass over saved-card charges whose outcome the store
 * does not know: each open charge of the last 48 hours is settled by its own
 * run of `settle-tw-saved-card-charge`, at the provider's request rate. A
 * failed run is logged and read again next time. Answers how many were
 * settled (paid, refunded or declined).
 */
export async function settleSavedCardCharges(container: MedusaContainer, { force = false, now = Date.now() }: SettleOptions = {}): Promise<number> {
  if (!container.hasRegistration(TW_SAVED_CARD_MODULE)) {
    return 0
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const rows = await savedCardModule(container).listTwSavedCardCharges(
    {
      $or: [{ status: ["unknown", "charging"] }, { status: "declined", code: CHARGE_CODES.legacyNotCharged }],
      created_at: { $gte: new Date(now - SETTLE_WINDOW_MS) },
    },
    { take: MAX_PER_RUN, order: { created_at: "ASC" }, select: ["id", "payment_session_id", "status", "created_at"] }
  )
  let settled = 0
  for (const row of rows) {
    // A charge under way right now belongs to its completion.
    if (row.status === "charging" && now - new Date(row.created_at).getTime() < CHARGE_STALE_MS) {
      continue
    }
    try {
      const { result } = await settleTwSavedCardChargeWorkflow(container).run({ input: { charge_id: row.id, payment_session_id: row.payment_session_id, force, now } })
      if (result.status === "skipped") {
        continue
      }
      if (result.status !== "unknown") {
        settled += 1
        logger.info(`medusa-payment-tw: the charge of saved card ${result.saved_card_id} for session ${row.payment_session_id} settled: ${result.status}`)
      }
      const provider = result.provider_key ? pluginProvider(container, result.provider_key) : undefined
      await sleep(1000 / (provider?.reconciliation.requestsPerSecond ?? 1))
    } catch (error) {
      logger.warn(`medusa-payment-tw: settling the charge of session ${row.payment_session_id} failed: ${untrusted((error as Error).message, 300)}`)
    }
  }
  return settled
}

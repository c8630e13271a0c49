import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../../lib/log"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import { processTwPaymentWorkflow } from "../process-tw-payment"
import { pluginProvider } from "../plugin-providers"
import { hostedApi } from "../subscriptions/hosted-api"
import { CHARGE_CODES, CHARGE_STALE_MS, loadSession, settleByReading } from "./saved-card-charge"

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
 * The reconciliation of saved-card charges whose outcome the store does not
 * know: a time-out, a 5xx or `C026` that the completion's own read did not
 * settle, or a charge cut off by a crash. Each is read by its `orderId`
 * (never sent again). A paid charge is written into its session and goes
 * through the payment pipeline like a notification's read: the cart is
 * completed into one captured order, or, when the session or the cart has
 * moved on, the money is refunded as an orphan. A failed one is a decline.
 * One the service does not show stays open and is read again next run: time
 * alone never declares a charge not made (rows declared so by an earlier
 * version, `NOT_CHARGED`, are read again too).
 */
export async function settleSavedCardCharges(container: MedusaContainer, { force = false, now = Date.now() }: SettleOptions = {}): Promise<number> {
  if (!container.hasRegistration(TW_SAVED_CARD_MODULE)) {
    return 0
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const module = container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
  const rows = await module.listTwSavedCardCharges(
    {
      $or: [{ status: ["unknown", "charging"] }, { status: "declined", code: CHARGE_CODES.legacyNotCharged }],
      created_at: { $gte: new Date(now - SETTLE_WINDOW_MS) },
    },
    { take: MAX_PER_RUN, order: { created_at: "ASC" } }
  )
  let settled = 0
  for (const row of rows) {
    // A charge under way right now belongs to its completion.
    if (row.status === "charging" && now - new Date(row.created_at).getTime() < CHARGE_STALE_MS) {
      continue
    }
    try {
      const card = await module.retrieveTwSavedCard(row.saved_card_id, { select: ["id", "provider_id", "last4"] })
      const key = card.provider_id.replace(/^pp_/, "")
      const provider = pluginProvider(container, key)
      if (!provider || (!provider.reconciliation.enabled && !force)) {
        continue
      }
      const api = hostedApi(container, key)
      const session = await loadSession(container, row.payment_session_id)
      const outcome = await settleByReading(container, api, row, session, { id: card.id, last4: card.last4 ?? null }, now)
      if (outcome.status !== "unknown") {
        settled += 1
        logger.info(`medusa-payment-tw: the charge of saved card ${card.id} for session ${row.payment_session_id} settled: ${outcome.status}`)
      }
      if (outcome.status === "paid" && outcome.transaction) {
        // The order, or, when the session or the cart has moved on, a refund of the orphan.
        const { result } = await processTwPaymentWorkflow(container).run({ input: { provider: key, serviceId: outcome.transaction.id } })
        if (result.decision.kind === "refund-orphan") {
          await module.updateTwSavedCardCharges({ id: row.id, code: CHARGE_CODES.refunded, message: untrusted(result.decision.why, 300) })
        }
      }
      await sleep(1000 / provider.reconciliation.requestsPerSecond)
    } catch (error) {
      logger.warn(`medusa-payment-tw: settling the charge of session ${row.payment_session_id} failed: ${untrusted((error as Error).message, 300)}`)
    }
  }
  return settled
}

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type SessionSavedCard, sessionSubscription } from "../../../providers/hosted-checkout/public"
import { pluginProvider } from "../../../providers/plugin-providers"
import { CHARGE_CODES, CHARGE_STALE_MS, type ChargeFacts } from "../decisions/charge-decision"
import { chargeFacts, loadSession, providerKeyOf, savedCardModule } from "../../../saved-cards/charge-rows"

export interface SettleTwSavedCardChargeInput {
  charge_id: string
  /** The charge's session: its lock is the one the completion's charge takes. */
  payment_session_id: string
  /** Also for providers whose scheduled reconciliation is off (an operator's one-off run, tests). */
  force?: boolean
  /** The time the settling judges by (a schedule's grace, a charge cut off); now when not given. */
  now?: number
}

export type ChargeToSettle =
  | { settle: false }
  | { settle: true; row: ChargeFacts; provider_key: string; card: SessionSavedCard; session_id: string; schedule: boolean; now: number }

/**
 * The charge as it is now, under its lock: still open (unknown, cut off while
 * charging, or declared not charged by an earlier version), its card, and a
 * provider whose reconciliation runs (or a forced run). A charge settled
 * meanwhile, or under way right now, is left alone.
 */
export const loadChargeToSettleStep = createStep("load-tw-saved-card-charge-to-settle", async (input: SettleTwSavedCardChargeInput, { container }) => {
  const now = input.now ?? Date.now()
  const module = savedCardModule(container)
  const [row] = await module.listTwSavedCardCharges({ id: input.charge_id }, { take: 1 })
  const open =
    !!row &&
    (row.status === "unknown" ||
      (row.status === "charging" && now - new Date(row.created_at).getTime() >= CHARGE_STALE_MS) ||
      (row.status === "declined" && row.code === CHARGE_CODES.legacyNotCharged))
  if (!open) {
    return new StepResponse<ChargeToSettle>({ settle: false })
  }
  const card = await module.retrieveTwSavedCard(row.saved_card_id, { select: ["id", "provider_id", "last4"] })
  const providerKey = providerKeyOf(card.provider_id)
  const provider = pluginProvider(container, providerKey)
  if (!provider || (!provider.reconciliation.enabled && !input.force)) {
    return new StepResponse<ChargeToSettle>({ settle: false })
  }
  const session = await loadSession(container, row.payment_session_id)
  return new StepResponse<ChargeToSettle>({
    settle: true,
    row: chargeFacts(row),
    provider_key: providerKey,
    card: { id: card.id, last4: card.last4 ?? null },
    session_id: row.payment_session_id,
    // A schedule has no transaction to read: judged by its age instead (settleFromRead).
    schedule: !!(session && sessionSubscription(session.data)?.firstChargeLater),
    now,
  })
})

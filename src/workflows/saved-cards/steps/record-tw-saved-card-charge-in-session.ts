import type { PaymentSessionDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { invoiceLines, type OrderLine, type Transaction } from "../../../lib/hosted"
import { type HostedCheckoutApi, sessionSubscription, transactionFacts } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { loadSession } from "../../../saved-cards/charge-rows"
import { restoringData } from "../decisions/restoring-data"

export type SessionRecord =
  /** A paid charge (read from the service), with the subscription's S number when known. */
  | { kind: "charge"; transaction: Transaction; hid: string | null }
  /** A later first charge: the schedule's S number stands in for the page, as a scheduled checkout's does (`awaitsFirstCharge`). */
  | { kind: "schedule"; hid: string }

/**
 * The paid charge becomes the session's transaction, with the read's facts and
 * a sealed read: core's authorization at the cart's completion then captures
 * it without another read. A subscription's session also learns its first
 * period's transaction and S number.
 */
function chargedData(api: HostedCheckoutApi, session: PaymentSessionDTO, tx: Transaction, hid: string | null): Record<string, unknown> {
  const subscription = sessionSubscription(session.data)
  return {
    ...session.data,
    transactionId: tx.id,
    transactionHid: tx.transactionHid,
    ...transactionFacts(tx),
    // A charge and a subscription alike are invoiced on the cart's lines (tokenChargeBody, tokenSubscriptionBody).
    ...(api.options.einvoice ? { invoiceLines: invoiceLines((session.data.lines as OrderLine[] | undefined) ?? [], tx.amount, (rest) => api.productLine(rest)) } : {}),
    ...(subscription ? { subscription: { ...subscription, checkoutId: tx.id, ...(hid ? { hid } : {}) } } : {}),
    attestation: api.attestor.seal({ sessionId: session.id, serviceId: tx.id, amount: tx.amount, status: tx.status }),
  }
}

function scheduledData(session: PaymentSessionDTO, hid: string): Record<string, unknown> {
  const subscription = sessionSubscription(session.data)
  return { ...session.data, transactionId: hid, transactionHid: hid, ...(subscription ? { subscription: { ...subscription, checkoutId: hid, hid } } : {}) }
}

type Previous = { id: string; amount: PaymentSessionDTO["amount"]; currency_code: string; data: Record<string, unknown> }

/**
 * Writes a charge (or a schedule) into its payment session. A session that is
 * gone (replaced by a new one) or already holds it is left as it is. Undone:
 * the session's previous data (what the write added, cleared), so it no
 * longer claims a charge.
 */
export const recordChargeInSessionStep = createStep(
  "record-tw-saved-card-charge-in-session",
  async ({ session_id, provider_key, record }: { session_id: string; provider_key: string; record: SessionRecord }, { container }) => {
    const session = await loadSession(container, session_id)
    const serviceId = record.kind === "charge" ? record.transaction.id : record.hid
    if (!session || session.data.transactionId === serviceId) {
      return new StepResponse<boolean, Previous | null>(false, null)
    }
    const data = record.kind === "charge" ? chargedData(hostedApi(container, provider_key), session, record.transaction, record.hid) : scheduledData(session, record.hid)
    const payments = container.resolve(Modules.PAYMENT)
    await payments.updatePaymentSession({ id: session.id, amount: session.amount, currency_code: session.currency_code, data })
    const previous: Previous = { id: session.id, amount: session.amount, currency_code: session.currency_code, data: restoringData(session.data, data) }
    return new StepResponse<boolean, Previous | null>(true, previous)
  },
  async (previous, { container }) => {
    if (previous) {
      await container.resolve(Modules.PAYMENT).updatePaymentSession(previous)
    }
  }
)

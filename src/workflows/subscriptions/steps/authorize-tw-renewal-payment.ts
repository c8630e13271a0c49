import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import type { Transaction } from "../../../lib/hosted"
import { providerId } from "../../../providers/core/provider-keys"
import { RENEWAL_CONTEXT_KEY, renewalLines, sealRenewalTerms } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import type { ObservedPeriod } from "../decisions/subscription-state"
import { amount } from "./place-tw-renewal-order"
import { orderPayments } from "./add-tw-renewal-payment-collection"

/** The subscription row as paying a renewal order needs it. */
export interface RenewalSubscription {
  id: string
  kind: "monthly" | "scheduled"
  provider_key: string
  payment_session_id: string
  customer_id: string
}

export interface AuthorizeRenewalPaymentInput {
  subscription: RenewalSubscription
  orderId: string
  collectionId: string
  /** A run that stopped after the capture left it paid: nothing more to authorize. */
  captured: boolean
  period: ObservedPeriod
  transaction: Transaction
}

/**
 * The lines a period was invoiced on, as its payment's `lines`: the service
 * invoices every period on the subscription checkout's `productDetails`, which
 * the checkout's session keeps as `invoiceLines` (the first order's lines).
 * A checkout that kept none (a saved card's later first charge) falls back on
 * the period's own read, which names its `productDetails` too. A renewal's
 * refund then shares these lines out as its allowances.
 */
async function invoicedLinesOfPeriod(container: MedusaContainer, sub: RenewalSubscription, tx: Transaction) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "data"], filters: { id: sub.payment_session_id } })
  const checkout = (data[0] as { data?: Record<string, unknown> | null } | undefined)?.data
  return renewalLines(checkout?.invoiceLines) ?? renewalLines(tx.productDetails)
}

/**
 * The order's payment is the period's transaction, through the hosted
 * provider (sealed renewal terms in the session context, with this run's
 * read of the transaction, so nothing is read again), captured at once.
 * Not undone: the service took the money; a collection whose session was
 * never authorized goes with the collection's compensation.
 */
export const authorizeTwRenewalPaymentStep = createStep(
  "authorize-tw-renewal-payment",
  async ({ subscription: sub, orderId, collectionId, captured, period, transaction: tx }: AuthorizeRenewalPaymentInput, { container }) => {
    if (captured) {
      return new StepResponse(undefined)
    }
    const order = await orderPayments(container, orderId)
    if (order && amount(order.total) !== period.amount) {
      // The service charged what was agreed at checkout; the order says what the store would charge today.
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`medusa-payment-tw: renewal order ${orderId} totals ${String(order.total)} TWD; the service charged ${period.amount} TWD for period ${period.period} of ${sub.id}`)
    }
    const api = hostedApi(container, sub.provider_key)
    const renewal = sealRenewalTerms(api.attestor, {
      subscription_id: sub.id,
      kind: sub.kind,
      transaction_id: period.transactionId,
      period: period.period,
      amount: period.amount,
      custom_id: sub.payment_session_id,
      // This run's read of the checkout's transactions, sealed: the provider does not read the transaction again.
      transaction_hid: tx.transactionHid,
      status: tx.status,
      paid_at: tx.paidAt ?? null,
      payment_method: tx.paymentMethod ?? null,
      payment_info: typeof tx.paymentInfo === "string" ? tx.paymentInfo : null,
    })
    const lines = await invoicedLinesOfPeriod(container, sub, tx)
    // .run(), not runAsStep: skipped once captured, and the session is authorized with the service's money right after: core's compensation would delete it
    const { result: session } = await createPaymentSessionsWorkflow(container).run({
      input: {
        payment_collection_id: collectionId,
        provider_id: providerId(sub.provider_key),
        data: lines ? { lines } : {},
        context: { [RENEWAL_CONTEXT_KEY]: renewal },
      },
    })
    const payment = await container.resolve(Modules.PAYMENT).authorizePaymentSession(session.id, {})
    if (!payment) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The payment of renewal order ${orderId} was not authorized.`)
    }
    return new StepResponse(undefined)
  }
)

import type { PaymentIntentRecord } from "./intents"
import type { RefundRecord } from "./refunds"
import type { WebhookEndpointRecord } from "./webhooks"

/**
 * The resources as the API shows them. Times are unix seconds. `clientSecret` appears only
 * in the create answer (the caller adds it), never in reads or webhook data.
 */

const seconds = (ms: number) => Math.floor(ms / 1000)

export function intentView(intent: PaymentIntentRecord, amountRefundable: number) {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    orderId: intent.orderId,
    returnUrl: intent.returnUrl,
    description: intent.description,
    metadata: intent.metadata,
    require3ds: intent.require3ds,
    lastPaymentError: intent.lastPaymentError,
    amountRefundable,
    created: seconds(intent.createdAt),
  }
}

/** What a publishable key may read (`GET /v1/payment-intents/{id}/status`). */
export function intentStatusView(intent: PaymentIntentRecord) {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    lastPaymentError: intent.lastPaymentError,
    nextAction: nextActionOf(intent),
  }
}

/** While a challenge runs: where the SDK shows it. */
export function nextActionOf(intent: PaymentIntentRecord): { type: "threeDsChallenge"; url: string } | null {
  return intent.status === "requiresAction" && intent.challenge && intent.challenge.endedAt === null ? { type: "threeDsChallenge", url: `/sdk/3ds/${intent.challenge.id}` } : null
}

export function refundView(refund: RefundRecord) {
  return {
    id: refund.id,
    paymentIntentId: refund.paymentIntentId,
    amount: refund.amount,
    status: refund.status,
    reason: refund.reason,
    metadata: refund.metadata,
    failureCode: refund.failureCode,
    created: seconds(refund.createdAt),
  }
}

export function endpointView(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents,
    status: endpoint.status,
    created: seconds(endpoint.createdAt),
  }
}

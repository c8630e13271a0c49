import type { HttpTypes } from "@medusajs/types"
import { isEmbeddedCardProvider, orderPaymentOf, orderPaymentState, type OrderPaymentState, type OrderWithPayment, type PaymentInstructions } from "medusa-payment-tw-storefront"

export type { PaymentInstructions }
export type PaymentState = OrderPaymentState

export interface OrderPayment {
  state: PaymentState
  label: string
  method?: string
  /** Said instead of the state's usual explanation. */
  explanation?: string
  instructions?: PaymentInstructions
}

const METHOD_LABELS: Record<string, string> = {
  card: "Credit card",
  cvs: "Convenience store",
  atm: "ATM bank transfer",
  linePay: "LINE Pay",
  applePay: "Apple Pay",
}

const STATE_LABELS: Record<PaymentState, string> = {
  paid: "Paid",
  awaiting: "Awaiting payment",
  authorized: "Payment authorized",
  refunded: "Refunded",
  canceled: "Canceled",
}

/** Order fields the confirmation page asks for: the payment status and the payment sessions with their data. */
export const ORDER_PAYMENT_FIELDS = "+payment_status,*payment_collections,*payment_collections.payment_sessions"

/**
 * The order's payment as the shopper should see it (the kit's `orderPaymentOf`), with this storefront's
 * English labels. The embedded card form only ever takes cards.
 */
export function describeOrderPayment(order: HttpTypes.StoreOrder): OrderPayment {
  const withPayment = order as unknown as OrderWithPayment
  const payment = orderPaymentOf(withPayment)
  const state = payment?.state ?? orderPaymentState(withPayment)
  // Awaiting, for a card, means the service accepted the card and is still processing the payment.
  const processing = !!payment && isEmbeddedCardProvider(payment.providerId) && state === "awaiting"
  return {
    state,
    label: STATE_LABELS[state],
    method: payment?.method ? (METHOD_LABELS[payment.method] ?? payment.method) : undefined,
    explanation: processing ? "The payment service is still processing your card payment. We ship your order once it is confirmed." : undefined,
    instructions: payment?.instructions,
  }
}

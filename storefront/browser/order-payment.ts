import type { HttpTypes } from "@medusajs/types"
import { hostedSessionOf, isEmbeddedCardProvider, isHostedCheckoutProvider } from "medusa-payment-tw-storefront"

/** What the shopper needs to pay a convenience-store code or a virtual account. */
export type PaymentInstructions =
  | { kind: "cvs"; storeName: string; code: string; payBefore: string }
  | { kind: "atm"; bankName: string; bankCode: string; account: string; payBefore: string }

export type PaymentState = "paid" | "awaiting" | "authorized" | "refunded" | "canceled"

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

function stateOf(order: HttpTypes.StoreOrder): PaymentState {
  if (order.status === "canceled") {
    return "canceled"
  }
  switch (order.payment_status) {
    case "captured":
      return "paid"
    case "refunded":
    case "partially_refunded":
      return "refunded"
    case "canceled":
      return "canceled"
    case "authorized":
      return "authorized"
    default:
      return "awaiting"
  }
}

function instructionsOf(info: unknown): PaymentInstructions | undefined {
  if (!info || typeof info !== "object") {
    return undefined
  }
  const fields = info as Record<string, unknown>
  const text = (name: string) => (typeof fields[name] === "string" ? (fields[name] as string) : "")
  if (text("code")) {
    return { kind: "cvs", storeName: text("cvsName"), code: text("code"), payBefore: text("expiredAt") }
  }
  if (text("account")) {
    return { kind: "atm", bankName: text("bankName"), bankCode: text("bankCode"), account: text("account"), payBefore: text("expiredAt") }
  }
  return undefined
}

/**
 * The order's payment as the shopper should see it: Medusa's payment status,
 * and from the payment session's public data the method and, for the hosted
 * page while unpaid, the convenience-store code or virtual account with its
 * deadline. The embedded card form only ever takes cards.
 */
export function describeOrderPayment(order: HttpTypes.StoreOrder): OrderPayment {
  const state = stateOf(order)
  const sessions = (order.payment_collections ?? []).flatMap((collection) => collection.payment_sessions ?? [])
  const session = sessions.filter((s) => isHostedCheckoutProvider(s.provider_id) || isEmbeddedCardProvider(s.provider_id)).at(-1)
  if (session && isEmbeddedCardProvider(session.provider_id)) {
    // Awaiting, for a card, means the service accepted the card and is still processing the payment.
    const explanation = state === "awaiting" ? "The payment service is still processing your card payment. We ship your order once it is confirmed." : undefined
    return { state, label: STATE_LABELS[state], method: METHOD_LABELS.card, explanation }
  }
  const hosted = session ? hostedSessionOf([session]) : undefined
  const method = hosted?.paymentMethod ? (METHOD_LABELS[hosted.paymentMethod] ?? hosted.paymentMethod) : undefined
  return {
    state,
    label: STATE_LABELS[state],
    method,
    instructions: state === "awaiting" ? instructionsOf(hosted?.paymentInfo) : undefined,
  }
}

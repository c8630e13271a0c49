import { hostedSessionOf } from "./hosted-session.js"
import { isEmbeddedCardProvider, isHostedCheckoutProvider } from "./provider-ids.js"
import type { StoreSession } from "./store-session.js"

/** The order fields `orderPaymentOf` reads, to add to a storefront's order query (`fields`). */
export const ORDER_PAYMENT_FIELDS = "+payment_status,*payment_collections.payment_sessions"

export type OrderPaymentState = "paid" | "awaiting" | "authorized" | "refunded" | "canceled"

/** What the shopper needs to pay a convenience-store code or a virtual bank account. */
export type PaymentInstructions =
  | { kind: "cvs"; storeName: string; code: string; payBefore: string }
  | { kind: "atm"; bankName: string; bankCode: string; account: string; payBefore: string }

export interface OrderPayment {
  state: OrderPaymentState
  providerId: string
  /** The way the shopper paid on the hosted page (`card`, `cvs`, `atm`, `linePay`, `applePay`); `card` for the embedded form. */
  method?: string
  /** The session's amount, in TWD. */
  amount: number
  /** A convenience-store code or a bank account still awaiting payment. */
  instructions?: PaymentInstructions
}

/** As much of an order as `orderPaymentOf` reads (a `StoreOrder` queried with `ORDER_PAYMENT_FIELDS`). */
export interface OrderWithPayment {
  status?: string | null
  payment_status?: string | null
  payment_collections?: ReadonlyArray<{ payment_sessions?: ReadonlyArray<StoreSession & { amount?: number | null }> | null }> | null
}

/** The order's payment state from Medusa's own fields, whichever provider took it. */
export function orderPaymentState(order: OrderWithPayment): OrderPaymentState {
  if (order.status === "canceled") {
    return "canceled"
  }
  switch (order.payment_status) {
    case "captured":
    case "partially_captured":
      return "paid"
    case "refunded":
    case "partially_refunded":
      return "refunded"
    case "canceled":
      return "canceled"
    case "authorized":
    case "partially_authorized":
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
 * An order's payment through the plugin, as the shopper should see it:
 * Medusa's payment status, the way they paid, and while unpaid the
 * convenience-store code or bank account with its deadline (from the hosted
 * session's public data). Undefined when no session of the plugin paid it.
 */
export function orderPaymentOf(order: OrderWithPayment): OrderPayment | undefined {
  const sessions = (order.payment_collections ?? []).flatMap((collection) => collection.payment_sessions ?? [])
  const session = sessions.filter((s) => isHostedCheckoutProvider(s.provider_id) || isEmbeddedCardProvider(s.provider_id)).at(-1)
  if (!session) {
    return undefined
  }
  const state = orderPaymentState(order)
  const base = { state, providerId: session.provider_id, amount: Number(session.amount ?? 0) }
  if (isEmbeddedCardProvider(session.provider_id)) {
    return { ...base, method: "card" }
  }
  const hosted = hostedSessionOf([session])
  const instructions = state === "awaiting" ? instructionsOf(hosted?.paymentInfo) : undefined
  return { ...base, ...(hosted?.paymentMethod ? { method: hosted.paymentMethod } : {}), ...(instructions ? { instructions } : {}) }
}

/** A time as Taipei's wall clock, `yyyy/MM/dd HH:mm` (Taiwan keeps +08:00 all year), the same on the server and in the browser. */
export function formatTaipeiTime(iso: string): string {
  const time = Date.parse(iso)
  if (Number.isNaN(time)) {
    return iso
  }
  const t = new Date(time + 8 * 3600_000)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${t.getUTCFullYear()}/${two(t.getUTCMonth() + 1)}/${two(t.getUTCDate())} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`
}

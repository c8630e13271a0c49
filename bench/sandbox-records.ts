// The service's side of the story, read from the sandbox's control API (with its internal fields).
import { z } from "zod"
import type { BenchStore } from "./store"

const transactionSchema = z.looseObject({
  id: z.string(),
  transactionHid: z.string(),
  status: z.string(),
  amount: z.number(),
  paymentMethod: z.string().optional(),
  customId: z.string().optional(),
  orderId: z.string().optional(),
  /** Which endpoint or job made it: checkout, subscription, tokenCharge, recurring, … */
  origin: z.string().optional(),
  subscriptionId: z.string().optional(),
  period: z.number().optional(),
  refundAmount: z.number().optional(),
  paidAt: z.string().optional(),
  createdAt: z.string(),
})
export type ServiceTransaction = z.output<typeof transactionSchema>

const intentSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: z.number(),
  amountRefundable: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  succeededAt: z.string().nullable().optional(),
})
export type ServiceIntent = z.output<typeof intentSchema>

const subscriptionSchema = z.looseObject({ id: z.string(), status: z.string(), period: z.number().optional(), nextChargeAt: z.string().optional() })
export type ServiceSubscription = z.output<typeof subscriptionSchema>

const refundSchema = z.looseObject({ id: z.string(), paymentIntentId: z.string(), amount: z.number(), status: z.string() })
export type ServiceRefund = z.output<typeof refundSchema>

const attemptSchema = z.looseObject({ status: z.number().optional(), error: z.string().optional(), timedOut: z.boolean() })
const notificationSchema = z.looseObject({
  purpose: z.string(),
  state: z.string(),
  body: z.record(z.string(), z.unknown()),
  attempts: z.array(attemptSchema),
})
export type ServiceNotification = z.output<typeof notificationSchema>

const apiCallSchema = z.object({ api: z.string(), merchantId: z.string(), endpoint: z.string(), calls: z.number() })

/** Hosted transactions paid at some point (refunded ones included): the money reached the merchant. */
export const HOSTED_PAID = new Set(["charged", "claimed", "refunding", "refunded", "refundedPostPayout"])

export async function transactions(store: BenchStore): Promise<ServiceTransaction[]> {
  const body = await store.control("GET", `/transactions?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
  return z.object({ transactions: z.array(transactionSchema) }).parse(body).transactions
}

export async function serviceSubscriptions(store: BenchStore): Promise<ServiceSubscription[]> {
  const body = await store.control("GET", `/subscriptions?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
  return z.object({ subscriptions: z.array(subscriptionSchema) }).parse(body).subscriptions
}

/** A period after the first of a subscription: its money belongs to a renewal order, not to a cart. */
export const isRenewal = (tx: ServiceTransaction) => !!tx.subscriptionId && (tx.period ?? 1) >= 2

/** The payment session a transaction was made for: its `customId`, or for token payments (saved cards) its `orderId`. */
export const sessionOf = (tx: ServiceTransaction) => tx.customId ?? (tx.orderId?.startsWith("payses_") ? tx.orderId : undefined)

export async function paymentIntents(store: BenchStore): Promise<ServiceIntent[]> {
  const body = await store.control("GET", `/payment-intents?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
  return z.object({ paymentIntents: z.array(intentSchema) }).parse(body).paymentIntents
}

export async function embeddedRefunds(store: BenchStore): Promise<ServiceRefund[]> {
  const body = await store.control("GET", `/refunds?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
  return z.object({ refunds: z.array(refundSchema) }).parse(body).refunds
}

export async function notifications(store: BenchStore, purpose?: string): Promise<ServiceNotification[]> {
  const body = await store.control("GET", `/notifications?merchantId=${store.sandbox.defaultMerchant.merchantId}${purpose ? `&purpose=${purpose}` : ""}`)
  return z.object({ notifications: z.array(notificationSchema) }).parse(body).notifications
}

/** Attempts the store answered with 2xx: notifications it received and accepted. */
export const acceptedAttempts = (list: ServiceNotification[]) => list.reduce((sum, n) => sum + n.attempts.filter((a) => a.status !== undefined && a.status >= 200 && a.status < 300).length, 0)

/** Calls the store made to `endpoint` (`METHOD /template`, e.g. `GET /transactions/{id}`) of one API. */
export async function apiCalls(store: BenchStore, api: "hosted" | "embedded", endpoint: string): Promise<number> {
  const body = await store.control("GET", `/api-calls?api=${api}&merchantId=${store.sandbox.defaultMerchant.merchantId}`)
  const rows = z.object({ apiCalls: z.array(apiCallSchema) }).parse(body).apiCalls
  return rows.filter((row) => row.endpoint === endpoint).reduce((sum, row) => sum + row.calls, 0)
}

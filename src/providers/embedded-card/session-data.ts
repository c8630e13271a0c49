import { z } from "zod"
import { storefrontPath } from "../core/options"
import { parseSessionData, sessionDataShape } from "../core/session-data"

/** What a storefront may send when it creates a session; anything else is refused. */
const storefrontDataSchema = z.strictObject({
  session_id: z.string().min(1),
  return_path: storefrontPath.optional(),
})
export type StorefrontData = z.output<typeof storefrontDataSchema>

/** Keys the provider writes into session data (see `sessionDataShape`). */
const shape = sessionDataShape(storefrontDataSchema, [
  "paymentIntentId",
  "clientSecret",
  "publishableKey",
  "sdkUrl",
  "sdkIntegrity",
  "returnUrl",
  "amount",
  "status",
  "lastPaymentError",
  "refunds",
  "attestation",
])

export const parseStorefrontData = shape.parseStorefront
/** What a new intent's data starts from. */
export const freshSessionData = shape.fresh

/**
 * Session (then payment) data. Public: the storefront needs the client secret,
 * the publishable key and the SDK address to mount the card form; the secret
 * key and webhook secrets never come here.
 */
export interface EmbeddedSessionData {
  session_id: string
  paymentIntentId: string
  clientSecret?: string
  publishableKey: string
  sdkUrl: string
  sdkIntegrity?: string
  returnUrl: string
  amount: number
  status?: string
  lastPaymentError?: string
  refunds?: Array<{ id: string; medusaRefundId?: string; amount: number; status: string }>
  /** The event pipeline's sealed read (see `Attestor`). */
  attestation?: unknown
}

/** The fields every stored session has; the rest the provider wrote itself, as its type says. */
const storedFields = z.looseObject({
  session_id: z.string().min(1),
  paymentIntentId: z.string().min(1),
  amount: z.number().int().positive(),
})

export function readSessionData(data: unknown): EmbeddedSessionData {
  parseSessionData(storedFields, data, "This payment has no payment intent")
  return data as EmbeddedSessionData
}

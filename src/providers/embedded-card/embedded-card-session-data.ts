import { z } from "zod"
import { storefrontPath } from "../core/options"
import { parseStoredSessionData, sessionDataShape } from "../core/session-data-shape"
import type { ShopperErrorCode } from "../core/shopper-error-codes"

/**
 * The languages of the service's card form: the SDK is constructed with a
 * locale (spec 4). The spec names no values and no default; these are the two
 * the service's form speaks (its sandbox: `zh-TW`, the default, and `en`).
 */
export const SDK_LOCALES = ["zh-TW", "en"] as const
export type SdkLocale = (typeof SDK_LOCALES)[number]
/** The card form's language when the storefront names none: a Taiwanese shop's shoppers read Traditional Chinese. */
export const DEFAULT_SDK_LOCALE: SdkLocale = "zh-TW"

/** What a storefront may send when it creates a session; anything else is refused. */
const storefrontDataSchema = z.strictObject({
  session_id: z.string().min(1),
  return_path: storefrontPath.optional(),
  /** The shopper's language for the card form; the session data gives it back as `locale` for the SDK's constructor. */
  locale: z.enum(SDK_LOCALES, { error: `must be one of ${SDK_LOCALES.map((l) => `"${l}"`).join(", ")} (the languages of the card form)` }).optional(),
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
  "refundAmount",
  "attestation",
  "errorCode",
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
  /** The shopper code of `lastPaymentError`, or of a failure without one (`shopper-error-codes.ts`). */
  errorCode?: ShopperErrorCode
  /** The card form's language: pass it to the SDK's constructor (`TwPay(publishableKey, { locale })`). */
  locale?: SdkLocale
  refunds?: Array<{ id: string; medusaRefundId?: string; amount: number; status: string }>
  /** What the service has refunded of the intent, as the event pipeline last read it: any refund, the store's or not. */
  refundAmount?: number
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
  parseStoredSessionData(storedFields, data, "This payment has no payment intent")
  return data as EmbeddedSessionData
}

import { z } from "zod"
import { isEmbeddedCardProvider } from "./provider-ids.js"
import type { StoreSession } from "./store-session.js"

/**
 * What the embedded-card provider hands the storefront in the session's data
 * (its embedded-card-session-data.ts): what the payment service's browser SDK needs to
 * mount the card form and confirm the payment intent.
 */
const cardDataSchema = z.looseObject({
  paymentIntentId: z.string().min(1),
  clientSecret: z.string().min(1),
  publishableKey: z.string().min(1),
  sdkUrl: z.url({ protocol: /^https?$/ }),
  sdkIntegrity: z.string().optional().catch(undefined),
  returnUrl: z.url({ protocol: /^https?$/ }),
  amount: z.number(),
  /** The card form's language, when the storefront chose one: the SDK's constructor takes it. */
  locale: z.enum(["en", "zh-TW"]).optional().catch(undefined),
})

export interface EmbeddedCardSession {
  id: string
  providerId: string
  /** Medusa's session status. */
  status: string
  paymentIntentId: string
  clientSecret: string
  publishableKey: string
  /** The SDK's script, and its integrity hash when the provider pins one. */
  sdkUrl: string
  sdkIntegrity?: string
  /** Where the SDK sends the shopper after a confirmation that went through. */
  returnUrl: string
  amount: number
  locale?: "en" | "zh-TW"
}


const latestCardSession = (sessions: readonly StoreSession[] | null | undefined, providerId?: string) =>
  (sessions ?? []).filter((s) => (providerId ? s.provider_id === providerId : isEmbeddedCardProvider(s.provider_id))).at(-1)

/** The latest embedded-card session, when its data can mount a card form. */
export function embeddedCardSessionOf(sessions: readonly StoreSession[] | null | undefined, providerId?: string): EmbeddedCardSession | undefined {
  const session = latestCardSession(sessions, providerId)
  const data = cardDataSchema.safeParse(session?.data ?? {})
  if (!session || !data.success) {
    return undefined
  }
  const { paymentIntentId, clientSecret, publishableKey, sdkUrl, sdkIntegrity, returnUrl, amount, locale } = data.data
  return {
    id: session.id,
    providerId: session.provider_id,
    status: session.status,
    paymentIntentId,
    clientSecret,
    publishableKey,
    sdkUrl,
    ...(sdkIntegrity ? { sdkIntegrity } : {}),
    returnUrl,
    amount,
    ...(locale ? { locale } : {}),
  }
}

/**
 * Why the last attempt on the session's intent failed, as its last read
 * recorded it: the shopper code (`errorCode`, e.g. `card_declined`) and the
 * service's own (`lastPaymentError`, e.g. `CARD_DECLINED`).
 */
export function embeddedCardFailureOf(sessions: readonly StoreSession[] | null | undefined, providerId?: string): { errorCode?: string; serviceCode?: string } | undefined {
  const data = latestCardSession(sessions, providerId)?.data ?? {}
  const text = (value: unknown) => (typeof value === "string" && value ? value : undefined)
  const errorCode = text(data.errorCode)
  const serviceCode = text(data.lastPaymentError)
  return errorCode || serviceCode ? { ...(errorCode ? { errorCode } : {}), ...(serviceCode ? { serviceCode } : {}) } : undefined
}

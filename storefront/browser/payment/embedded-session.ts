import type { HttpTypes } from "@medusajs/types"
import { providerId, providerKey } from "../../../src/providers/core/provider-keys"

export const EMBEDDED_CARD_PROVIDER_ID = providerId(providerKey("embedded-card", "embedded-card"))

/**
 * The public session data of the embedded-card provider (its
 * session-data.ts): what the SDK needs to mount the card form and confirm it.
 */
export interface EmbeddedSessionData {
  paymentIntentId: string
  clientSecret: string
  publishableKey: string
  sdkUrl: string
  sdkIntegrity?: string
  returnUrl: string
  amount: number
}

type Session = HttpTypes.StorePaymentSession

/** The data of the collection's embedded-card session, when it has one the SDK can use. */
export function embeddedSessionData(sessions: Session[] | null | undefined): EmbeddedSessionData | undefined {
  const session = (sessions ?? []).filter((s) => s.provider_id === EMBEDDED_CARD_PROVIDER_ID).at(-1)
  const data = session?.data as Partial<EmbeddedSessionData> | undefined
  if (!data?.clientSecret || !data.publishableKey || !data.sdkUrl || !data.returnUrl || !data.paymentIntentId) {
    return undefined
  }
  return data as EmbeddedSessionData
}

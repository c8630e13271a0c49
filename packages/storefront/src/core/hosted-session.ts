import { z } from "zod"
import { isHostedCheckoutProvider } from "./provider-ids.js"
import type { StoreSession } from "./store-session.js"

/**
 * The public part of a hosted-checkout session's data that a storefront
 * reads (the provider's hosted-checkout-session-data.ts writes it). Session data is an
 * untyped record, so it is parsed; a field of another shape counts as absent.
 */
/** The shopper is sent there: a web address only, never a `javascript:` one. */
const webAddress = z.url({ protocol: /^https?$/ })

const hostedDataSchema = z.looseObject({
  checkoutUrl: webAddress.optional().catch(undefined),
  expiresAt: z.string().optional().catch(undefined),
  /** The service's transaction status at the last read (`charged`, `charging`, `failed`, …). */
  status: z.string().optional().catch(undefined),
  paymentMethod: z.string().optional().catch(undefined),
  /** The convenience-store code or virtual account, once issued. */
  paymentInfo: z.unknown().optional(),
  savedCard: z.object({ id: z.string(), last4: z.string().nullable().default(null) }).optional().catch(undefined),
  /** Why the payment did not go through, as a shopper code (a failed transaction, a page that expired). */
  errorCode: z.string().optional().catch(undefined),
})

export interface HostedSession {
  id: string
  providerId: string
  /** Medusa's session status. */
  status: string
  /** The payment page; absent on a saved-card session, which has none. */
  checkoutUrl?: string
  expiresAt?: string
  transactionStatus?: string
  paymentMethod?: string
  paymentInfo?: unknown
  savedCard?: { id: string; last4: string | null }
  errorCode?: string
}


/** The latest hosted-checkout session among a payment collection's sessions (of `providerId` when given). */
export function hostedSessionOf(sessions: readonly StoreSession[] | null | undefined, providerId?: string): HostedSession | undefined {
  const session = (sessions ?? []).filter((s) => (providerId ? s.provider_id === providerId : isHostedCheckoutProvider(s.provider_id))).at(-1)
  if (!session) {
    return undefined
  }
  const data = hostedDataSchema.safeParse(session.data ?? {})
  const facts = data.success ? data.data : {}
  return {
    id: session.id,
    providerId: session.provider_id,
    status: session.status,
    ...(facts.checkoutUrl ? { checkoutUrl: facts.checkoutUrl } : {}),
    ...(facts.expiresAt ? { expiresAt: facts.expiresAt } : {}),
    ...(facts.status ? { transactionStatus: facts.status } : {}),
    ...(facts.paymentMethod ? { paymentMethod: facts.paymentMethod } : {}),
    ...(facts.paymentInfo !== undefined ? { paymentInfo: facts.paymentInfo } : {}),
    ...(facts.savedCard ? { savedCard: facts.savedCard } : {}),
    ...(facts.errorCode ? { errorCode: facts.errorCode } : {}),
  }
}

/** What the SDK's promises resolve to: never a rejection, an `{ error }` instead. */
export interface SdkError {
  code: string
  message: string
}

export interface Failure {
  error: SdkError
}

export interface LastPaymentError {
  code: string
  message?: string
}

/** The intent as the SDK shows it (`retrievePaymentIntent`): no client secret. */
export interface PaymentIntentView {
  id: string
  status: string
  amount: number
  currency: string
  lastPaymentError?: LastPaymentError
}

/** A 3-D Secure challenge waiting: `url` is a sandbox path (`/sdk/3ds/{challengeId}`). */
export interface NextAction {
  type: string
  url?: string
}

export type RetrieveResult = { paymentIntent: PaymentIntentView } | Failure

export function fail(code: string, message: string): Failure {
  return { error: { code, message } }
}

/** `pi_..._secret_...` -> `pi_...`; anything else (a caller's mistake, from plain JavaScript): null. */
export function intentIdOf(clientSecret: unknown): string | null {
  const at = typeof clientSecret === "string" ? clientSecret.indexOf("_secret_") : -1
  return at > 0 ? (clientSecret as string).slice(0, at) : null
}

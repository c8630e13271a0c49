/** A payment session as the store API shows it (a cart's, or the subscription checkout's answer). */
export interface StoreSession {
  id: string
  provider_id: string
  status: string
  data?: Record<string, unknown> | null
}

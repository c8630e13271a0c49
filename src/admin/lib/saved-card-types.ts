/** The admin view of a saved card, as docs/saved-cards.md describes it: facts only, never the token. */

export type SavedCardStatus = "binding" | "active" | "failed"

export interface SavedCard {
  id: string
  status: SavedCardStatus
  /** null until the service reported it. */
  last4: string | null
  card_label: string | null
  /** When the token arrived; null before. */
  bound_at: string | null
  created_at: string
  /** "failed" only. */
  failure_reason: string | null
  customer_id: string
  provider_id: string
  updated_at: string
}

import type { ListedSavedCardStatus } from "./statuses"

/**
 * What the saved-card routes answer (docs/saved-cards.md): never the token,
 * its ciphertext or its key. `D` as in subscription-views.ts.
 */

export interface SavedCardView<D = string> {
  id: string
  /** A binding past its page's time shows as failed. */
  status: ListedSavedCardStatus
  /** "failed" only. */
  failure_reason: string | null
  /** null until the service reported it. */
  last4: string | null
  card_label: string | null
  /** When the token arrived; null before. */
  bound_at: D | null
  created_at: D
}

export interface AdminSavedCardView<D = string> extends SavedCardView<D> {
  customer_id: string
  provider_id: string
  updated_at: D
}

/** `GET /admin/customers/:id/tw-saved-cards`. */
export interface AdminSavedCardsResponse {
  saved_cards: AdminSavedCardView[]
}

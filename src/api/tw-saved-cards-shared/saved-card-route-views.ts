import type { MedusaContainer } from "@medusajs/framework/types"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import { visibleState } from "../../modules/tw-saved-card/binding-state"
import type { AdminSavedCardView, SavedCardView } from "../../shared/saved-card-views"
import { LISTED_SAVED_CARD_STATUSES, type ListedSavedCardStatus } from "../../shared/statuses"

/** What the saved-card routes answer (docs/saved-cards.md, typed in src/shared): never the token, its ciphertext or its key. */

export const savedCards = (container: MedusaContainer) => container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)

type Row = Awaited<ReturnType<TwSavedCardModuleService["retrieveTwSavedCard"]>>

/** Statuses a list shows; a deleted card is gone for the customer and the admin. */
export const LISTED_STATUSES = LISTED_SAVED_CARD_STATUSES

export function savedCardView(row: Row, now = Date.now()): SavedCardView<Date> {
  const { status, failure_reason } = visibleState(row, now)
  return {
    id: row.id,
    // Rows come from lists filtered on LISTED_STATUSES, and a timed-out binding shows as failed.
    status: status as ListedSavedCardStatus,
    failure_reason,
    last4: row.last4 ?? null,
    card_label: row.card_label ?? null,
    bound_at: row.bound_at ?? null,
    created_at: row.created_at,
  }
}

export function adminSavedCardView(row: Row, now = Date.now()): AdminSavedCardView<Date> {
  return { ...savedCardView(row, now), customer_id: row.customer_id, provider_id: row.provider_id, updated_at: row.updated_at }
}

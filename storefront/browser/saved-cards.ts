import type { ListedSavedCardStatus } from "../../src/shared/statuses"
import { sdk } from "./medusa"

/**
 * The logged-in customer's saved cards, through the routes under
 * `/store/customers/me/tw-saved-cards` (docs/saved-cards.md): only ever their
 * own, and only their public facts (never a token).
 */

export interface SavedCard {
  id: string
  status: ListedSavedCardStatus
  last4: string | null
  card_label: string | null
  bound_at: string | null
  created_at: string
  failure_reason: string | null
}

export async function mySavedCards(): Promise<SavedCard[]> {
  return (await sdk.client.fetch<{ saved_cards: SavedCard[] }>("/store/customers/me/tw-saved-cards")).saved_cards
}

/** The cards that can be charged now. */
export async function activeSavedCards(): Promise<SavedCard[]> {
  return (await mySavedCards()).filter((card) => card.status === "active")
}

/** Starts a binding; the shopper goes to the returned page and comes back to `returnPath`. */
export async function startCardBinding(returnPath: string): Promise<string> {
  const { checkout_url } = await sdk.client.fetch<{ checkout_url: string }>("/store/customers/me/tw-saved-cards", { method: "POST", body: { return_path: returnPath } })
  return checkout_url
}

export async function deleteSavedCard(id: string): Promise<void> {
  await sdk.client.fetch(`/store/customers/me/tw-saved-cards/${encodeURIComponent(id)}`, { method: "DELETE" })
}

/** "•••• 4242", as the shopper recognises the card. */
export function cardName(card: Pick<SavedCard, "last4" | "card_label">): string {
  return [card.card_label, card.last4 ? `•••• ${card.last4}` : "Saved card"].filter(Boolean).join(" ")
}

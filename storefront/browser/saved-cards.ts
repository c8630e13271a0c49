import { listSavedCards, type SavedCard } from "medusa-payment-tw-storefront"
import { sdk } from "./medusa"

/** The cards that can be charged now. */
export async function activeSavedCards(): Promise<SavedCard[]> {
  return (await listSavedCards(sdk)).filter((card) => card.status === "active")
}

/** "•••• 4242", as the shopper recognises the card. */
export function cardName(card: Pick<SavedCard, "last4" | "card_label">): string {
  return [card.card_label, card.last4 ? `•••• ${card.last4}` : "Saved card"].filter(Boolean).join(" ")
}

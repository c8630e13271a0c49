import type { SavedCard } from "../core/saved-cards.js"
import type { TwPaymentContextValue } from "./context.js"

/** A saved card as the shopper knows it: its last four digits, once the service reported them. */
export const savedCardName = (card: SavedCard, text: TwPaymentContextValue["text"]): string =>
  card.last4 ? text("saved_card_name", { last4: card.last4 }) : text("saved_card_name_pending")

import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import { checkedReturnPath } from "./return-path.js"
import { storeCall } from "./store-answer.js"

/**
 * The logged-in customer's saved cards, through the plugin's routes under
 * `/store/customers/me/tw-saved-cards` (its docs/saved-cards.md): only their
 * own, only public facts, never a token. A guest gets 401.
 */

export const SAVED_CARD_STATUSES = ["binding", "active", "failed"] as const
export type SavedCardStatus = (typeof SAVED_CARD_STATUSES)[number]

export interface SavedCard {
  id: string
  /** `binding` until the service's notification arrives; a binding past its page's time shows `failed`. */
  status: SavedCardStatus
  /** Why a binding failed; null otherwise. */
  failure_reason: string | null
  /** Null until the service reported it. */
  last4: string | null
  card_label: string | null
  bound_at: string | null
  created_at: string
}

export interface CardBinding {
  savedCard: SavedCard
  /** The service's binding page (valid 10 minutes); it sends the shopper back to the return path. */
  checkoutUrl: string
}

const BASE = "/store/customers/me/tw-saved-cards"

/** The customer's cards, newest first. */
export async function listSavedCards(sdk: Medusa, headers?: ClientHeaders): Promise<SavedCard[]> {
  const { saved_cards } = await storeCall(() => sdk.client.fetch<{ saved_cards: SavedCard[] }>(BASE, { headers }))
  return saved_cards
}

/**
 * Starts saving a card: the card is recorded `binding` and the service's
 * binding page opened. The page's return says nothing reliable (the card
 * becomes `active` when the service's notification arrives, seconds later),
 * so the return path's page lists the cards again until it has.
 */
export async function startCardBinding(sdk: Medusa, input: { returnPath?: string; providerId?: string } = {}, headers?: ClientHeaders): Promise<CardBinding> {
  const returnPath = checkedReturnPath(input.returnPath)
  const body = { ...(returnPath ? { return_path: returnPath } : {}), ...(input.providerId ? { provider_id: input.providerId } : {}) }
  const answer = await storeCall(() => sdk.client.fetch<{ saved_card: SavedCard; checkout_url: string }>(BASE, { method: "POST", body, headers }))
  return { savedCard: answer.saved_card, checkoutUrl: answer.checkout_url }
}

/** Deletes one of the customer's cards; another customer's, or one already deleted, is a 404. */
export async function deleteSavedCard(sdk: Medusa, id: string, headers?: ClientHeaders): Promise<void> {
  await storeCall(() => sdk.client.fetch(`${BASE}/${encodeURIComponent(id)}`, { method: "DELETE", headers }))
}

import { z } from "zod"

/**
 * What the hosted-checkout provider keeps in Medusa's account holder: a
 * mirror of the customer's usable saved cards, with only the facts a shopper
 * may see. Account-holder data reaches the storefront (it is copied into every
 * payment session's context), so a token or its ciphertext never goes here:
 * whatever the data holds, only these fields survive `accountHolderData`.
 *
 * The mirror is written by the plugin after a card is bound or deleted
 * (the workflows `bind-tw-card` and `delete-tw-saved-card`); the cards
 * themselves live in the plugin's `tw_saved_card` module.
 */
export const SAVED_CARDS_KEY = "tw_saved_cards"

const timestamp = z.union([z.string(), z.date()]).transform((value) => new Date(value).toISOString())

export const savedCardFactSchema = z.object({
  id: z.string().startsWith("twcard_"),
  last4: z.string().regex(/^\d{4}$/).nullable().catch(null),
  card_label: z.string().max(100).nullable().catch(null),
  bound_at: timestamp.nullable().catch(null),
  created_at: timestamp.nullable().catch(null),
})

export type SavedCardFact = z.output<typeof savedCardFactSchema>

/** The mirrored cards of account-holder data; anything that is not a card fact is left out. */
export function savedCardFacts(data: unknown): SavedCardFact[] {
  const cards = (data as Record<string, unknown> | null | undefined)?.[SAVED_CARDS_KEY]
  if (!Array.isArray(cards)) {
    return []
  }
  return cards.flatMap((card) => {
    const parsed = savedCardFactSchema.safeParse(card)
    return parsed.success ? [parsed.data] : []
  })
}

/** Account-holder data as the provider writes it: the card facts and nothing else. */
export function accountHolderData(data: unknown): Record<string, unknown> {
  return { [SAVED_CARDS_KEY]: savedCardFacts(data) }
}

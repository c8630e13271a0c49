import type { AccountHolderDTO, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { SavedCardFact } from "../providers/hosted-checkout/public"
import { savedCardModule } from "./charge-rows"

/**
 * What the account-holder steps read: a customer's active cards as the
 * holder mirrors them, and the customer with their holder of a provider.
 */

export interface MirrorSavedCardsInput {
  customer_id: string
  provider_id: string
  /** A card about to be deleted: left out already (the delete comes last, so nothing is left to put back). */
  without_card_id?: string | null
}

/** The holder's fields the provider's `updateAccountHolder` is given. */
export type Holder = Pick<AccountHolderDTO, "id" | "provider_id" | "external_id" | "data">

export interface CustomerFacts {
  id: string
  email?: string | null
  first_name?: string | null
  last_name?: string | null
  phone?: string | null
  company_name?: string | null
  account_holders?: Array<Holder | null> | null
}

/** The customer's active cards of this provider, as safe facts (id, last four, label, dates): never a token or its ciphertext. */
export async function cardFacts(container: MedusaContainer, { customer_id, provider_id, without_card_id }: MirrorSavedCardsInput): Promise<SavedCardFact[]> {
  const cards = await savedCardModule(container).listTwSavedCards({ customer_id, provider_id, status: "active" }, { take: null, order: { created_at: "ASC" } })
  return cards
    .filter((card) => card.id !== without_card_id)
    .map((card) => ({
      id: card.id,
      last4: card.last4 ?? null,
      card_label: card.card_label ?? null,
      bound_at: card.bound_at ? new Date(card.bound_at).toISOString() : null,
      created_at: new Date(card.created_at).toISOString(),
    }))
}

/** The customer and their holder of this provider (none when they never paid with it and no card was mirrored yet). */
export async function customerAndHolder(container: MedusaContainer, customerId: string, providerId: string): Promise<{ customer?: CustomerFacts; holder?: Holder }> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "phone", "company_name", "account_holders.*"],
    filters: { id: customerId },
  })
  const customer: CustomerFacts | undefined = data[0]
  const holder = (customer?.account_holders ?? []).find((h) => h?.provider_id === providerId) ?? undefined
  return { customer, holder }
}

import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import { SAVED_CARDS_KEY, type SavedCardFact } from "../../providers/hosted-checkout/public"

interface HolderRow {
  id: string
  provider_id: string
  external_id?: string
  data?: Record<string, unknown> | null
}

interface CustomerRow {
  id: string
  email?: string | null
  first_name?: string | null
  last_name?: string | null
  phone?: string | null
  company_name?: string | null
  account_holders?: Array<HolderRow | null> | null
}

/**
 * Brings the customer's account holder of this provider in line with their
 * active saved cards: the safe facts only (id, last four, label, dates), via
 * the payment module's `updateAccountHolder`, which the provider filters once
 * more. A customer who never paid with the provider has no holder yet: one is
 * created and linked as core's session workflow would, so core later finds it
 * instead of creating a second one (unique per provider and customer).
 */
export async function mirrorSavedCards(container: MedusaContainer, customerId: string, providerId: string): Promise<void> {
  const cards = await container
    .resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    .listTwSavedCards({ customer_id: customerId, provider_id: providerId, status: "active" }, { take: null, order: { created_at: "ASC" } })
  const facts: SavedCardFact[] = cards.map((card) => ({
    id: card.id,
    last4: card.last4 ?? null,
    card_label: card.card_label ?? null,
    bound_at: card.bound_at ? new Date(card.bound_at).toISOString() : null,
    created_at: new Date(card.created_at).toISOString(),
  }))

  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "phone", "company_name", "account_holders.*"],
    filters: { id: customerId },
  })
  const customer = data[0] as CustomerRow | undefined
  if (!customer) {
    return
  }
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  let holder = (customer.account_holders ?? []).find((h) => h?.provider_id === providerId) ?? undefined
  if (!holder) {
    if (!facts.length) {
      return
    }
    holder = await createHolder(container, payment, customer, providerId)
  }
  await payment.updateAccountHolder({
    id: holder.id,
    provider_id: providerId,
    context: { account_holder: { ...holder, data: { ...(holder.data ?? {}), [SAVED_CARDS_KEY]: facts } } },
  })
}

async function createHolder(container: MedusaContainer, payment: IPaymentModuleService, customer: CustomerRow, providerId: string): Promise<HolderRow> {
  try {
    const created = (await payment.createAccountHolder({
      provider_id: providerId,
      context: {
        customer: {
          id: customer.id,
          email: customer.email ?? "",
          first_name: customer.first_name ?? undefined,
          last_name: customer.last_name ?? undefined,
          phone: customer.phone ?? undefined,
          company_name: customer.company_name ?? undefined,
        },
      },
    })) as HolderRow
    await container.resolve(ContainerRegistrationKeys.LINK).create({
      [Modules.CUSTOMER]: { customer_id: customer.id },
      [Modules.PAYMENT]: { account_holder_id: created.id },
    })
    return created
  } catch (error) {
    // Core's session workflow created it at the same moment (unique per provider and customer): use that one.
    const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "account_holder",
      fields: ["id", "provider_id", "external_id", "data"],
      filters: { provider_id: providerId, external_id: customer.id },
    })
    if (!data[0]) {
      throw error
    }
    return data[0] as HolderRow
  }
}

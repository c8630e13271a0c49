import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cardFacts, type CustomerFacts, customerAndHolder, type Holder, type MirrorSavedCardsInput } from "../../../saved-cards/account-holders"

const holderLink = (customerId: string, holderId: string) => ({ [Modules.CUSTOMER]: { customer_id: customerId }, [Modules.PAYMENT]: { account_holder_id: holderId } })

/** Core's session workflow created it at the same moment (unique per provider and customer). */
async function existingHolder(container: MedusaContainer, customerId: string, providerId: string): Promise<Holder | undefined> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "account_holder",
    fields: ["id", "provider_id", "external_id", "data"],
    filters: { provider_id: providerId, external_id: customerId },
  })
  return data[0]
}

async function createHolder(container: MedusaContainer, customer: CustomerFacts, providerId: string): Promise<Holder> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const holder = await payment.createAccountHolder({
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
  })
  try {
    await container.resolve(ContainerRegistrationKeys.LINK).create(holderLink(customer.id, holder.id))
  } catch (error) {
    // This step failed, so no compensation runs for it: an unlinked holder is not left behind.
    await payment.deleteAccountHolder(holder.id)
    throw error
  }
  return holder
}

/**
 * The customer's account holder of this provider, created and linked as
 * core's session workflow would when they have none and have a card to show,
 * so core later finds it instead of creating a second one. Undone: a holder
 * created here is unlinked and deleted.
 */
export const ensureAccountHolderStep = createStep(
  "ensure-tw-account-holder",
  async (input: MirrorSavedCardsInput, { container }) => {
    const { customer, holder } = await customerAndHolder(container, input.customer_id, input.provider_id)
    if (!customer || holder || !(await cardFacts(container, input)).length) {
      return new StepResponse<string | null, { customer_id: string; holder_id: string } | null>(holder?.id ?? null, null)
    }
    try {
      const created = await createHolder(container, customer, input.provider_id)
      return new StepResponse<string | null, { customer_id: string; holder_id: string } | null>(created.id, { customer_id: customer.id, holder_id: created.id })
    } catch (error) {
      const existing = await existingHolder(container, customer.id, input.provider_id)
      if (!existing) {
        throw error
      }
      return new StepResponse<string | null, { customer_id: string; holder_id: string } | null>(existing.id, null)
    }
  },
  async (created, { container }) => {
    if (created) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss(holderLink(created.customer_id, created.holder_id))
      await container.resolve<IPaymentModuleService>(Modules.PAYMENT).deleteAccountHolder(created.holder_id)
    }
  }
)

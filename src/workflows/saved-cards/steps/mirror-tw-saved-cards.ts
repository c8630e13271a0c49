import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SAVED_CARDS_KEY } from "../../../providers/hosted-checkout/public"
import { cardFacts, customerAndHolder, type Holder, type MirrorSavedCardsInput } from "../../../saved-cards/account-holders"

/**
 * Brings the customer's account holder of this provider in line with their
 * active saved cards: the safe facts only, through the payment module's
 * `updateAccountHolder` (the provider filters the data once more). A
 * customer without a holder has nothing to show (ensure-tw-account-holder.ts
 * made one when there was). Undone: the holder's previous data.
 */
export const mirrorSavedCardsStep = createStep(
  "mirror-tw-saved-cards",
  async (input: MirrorSavedCardsInput, { container }) => {
    const { holder } = await customerAndHolder(container, input.customer_id, input.provider_id)
    if (!holder) {
      return new StepResponse<number, Holder | null>(0, null)
    }
    const facts = await cardFacts(container, input)
    const previous: Holder = { id: holder.id, provider_id: holder.provider_id, external_id: holder.external_id, data: holder.data ?? {} }
    await container.resolve<IPaymentModuleService>(Modules.PAYMENT).updateAccountHolder({
      id: holder.id,
      provider_id: input.provider_id,
      context: { account_holder: { ...previous, data: { ...previous.data, [SAVED_CARDS_KEY]: facts } } },
    })
    return new StepResponse<number, Holder | null>(facts.length, previous)
  },
  async (previous, { container }) => {
    if (previous) {
      await container.resolve<IPaymentModuleService>(Modules.PAYMENT).updateAccountHolder({ id: previous.id, provider_id: previous.provider_id, context: { account_holder: previous } })
    }
  }
)

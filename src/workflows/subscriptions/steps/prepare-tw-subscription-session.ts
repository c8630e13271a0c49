import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cartInvoiceSessionData } from "../../../payments/cart-invoice-facts"
import { sealSubscriptionTerms, SUBSCRIPTION_CONTEXT_KEY } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import type { StartTwSubscriptionCheckoutInput } from "../start-tw-subscription-checkout"
import type { CheckoutTerms } from "./validate-tw-subscription-checkout"

/** The session's input: the plan sealed for the provider (only this route opens a recurring page) and the cart's invoice facts. */
export const sessionInputStep = createStep(
  "prepare-tw-subscription-session",
  async ({ input, checkout, subscription_id, payment_collection_id }: { input: StartTwSubscriptionCheckoutInput; checkout: CheckoutTerms; subscription_id: string; payment_collection_id: string }, { container }) => {
    const { terms } = checkout
    const sealed = sealSubscriptionTerms(hostedApi(container, checkout.provider_key).attestor, {
      subscription_id,
      customer_id: checkout.customer_id,
      kind: terms.kind,
      interval_months: terms.interval_months,
      periods: terms.periods_total,
      start_date: terms.start_date,
      amount: terms.amount,
    })
    return new StepResponse({
      payment_collection_id,
      provider_id: checkout.provider_id,
      customer_id: checkout.customer_id,
      data: {
        // The cart's buyer and lines, as the store middleware gives a one-time session: every period is invoiced on them.
        ...(await cartInvoiceSessionData(container, payment_collection_id)),
        ...(input.return_path ? { return_path: input.return_path } : {}),
        ...(input.invoice ? { invoice: input.invoice } : {}),
        ...(input.saved_card_id ? { savedCardId: input.saved_card_id } : {}),
      },
      context: { [SUBSCRIPTION_CONTEXT_KEY]: sealed },
    })
  }
)

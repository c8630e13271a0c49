import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { providerId } from "../../../providers/core/provider-keys"
import { pluginProviders } from "../../../providers/plugin-providers"
import { hostedApi } from "../../../providers/plugin-hosted-api"

/** The storefront's account page, where the binding page sends the shopper back by default. */
export const DEFAULT_BINDING_RETURN_PATH = "/account"

export interface StartTwCardBindingInput {
  customer_id: string
  /** `pp_hosted-checkout_<id>`; the first hosted-checkout provider when not given. */
  provider_id?: string
  /** Where the binding page sends the shopper back, on success and on failure. */
  return_path?: string
}

export interface CardBindingTarget {
  customer_id: string
  provider_key: string
  provider_id: string
  /** The cardholder's email, so the page does not ask for it (when it looks like one). */
  email: string | null
  back_url: string
}

/** The provider to bind with, the customer's email and the page's way back; nothing is written yet. */
export const prepareCardBindingStep = createStep("prepare-tw-card-binding", async (input: StartTwCardBindingInput, { container }) => {
  const hosted = pluginProviders(container).filter((p) => p.identifier === "hosted-checkout")
  const provider = input.provider_id ? hosted.find((p) => providerId(p.key) === input.provider_id) : hosted[0]
  if (!provider) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      input.provider_id ? `${input.provider_id} is not a hosted-checkout provider of this store.` : "This store has no hosted-checkout provider to bind cards with."
    )
  }
  const api = hostedApi(container, provider.key)
  const { data: customers } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "customer", fields: ["id", "email"], filters: { id: input.customer_id } })
  const email: string | null | undefined = customers[0]?.email
  return new StepResponse<CardBindingTarget>({
    customer_id: input.customer_id,
    provider_key: provider.key,
    provider_id: providerId(provider.key),
    email: email && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) ? email : null,
    back_url: `${api.options.storefrontUrl.replace(/\/+$/, "")}${input.return_path ?? DEFAULT_BINDING_RETURN_PATH}`,
  })
})

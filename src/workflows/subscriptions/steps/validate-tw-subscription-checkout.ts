import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { addMonths, compareCalendarDates, formatCalendarDate, taipeiDate } from "../../../lib/hosted"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../../modules/tw-saved-card"
import { toTwd } from "../../../providers/core/money"
import { isProviderOf } from "../../../providers/core/provider-keys"
import { SHOPPER_ERROR, type ShopperErrorCode, withShopperCode } from "../../../providers/core/shopper-error-codes"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

const DAY_MS = 24 * 3_600_000

export interface CheckoutRequest {
  cart_id: string
  customer_id: string
  plan_id: string
  provider_id?: string
  saved_card_id?: string
}

/** What a subscription checkout will write: the row's terms, the provider, and what the cart still lacks. */
export interface CheckoutTerms {
  cart_id: string
  customer_id: string
  /** The cart has no customer yet: it is given to the logged-in one. */
  transfer_cart: boolean
  payment_collection_id: string | null
  provider_id: string
  provider_key: string
  terms: { kind: "monthly" | "scheduled"; interval_months: number; periods_total: number | null; start_date: string | null; amount: number; plan_id: string }
}

interface CartRow {
  id: string
  currency_code: string
  customer_id: string | null
  total: unknown
  completed_at?: unknown
  items?: Array<{ id: string; variant_id: string | null; quantity: number } | null>
  region?: { payment_providers?: Array<{ id: string } | null> | null } | null
  payment_collection?: { id: string } | null
}

const refuse = (message: string, code: ShopperErrorCode) => new MedusaError(MedusaError.Types.INVALID_DATA, message, code)

/**
 * Every check of a subscription checkout, before anything is written (each
 * refusal is a 400 that says which, docs/subscriptions.md): the cart is open,
 * the customer's or nobody's, in TWD, with exactly one item of the plan's
 * variant; the plan is offered; the provider is a hosted-checkout provider of
 * the cart's region; a saved card is the customer's; a later first charge is
 * less than 12 months away.
 */
export const checkoutTermsStep = createStep("validate-tw-subscription-checkout", async (input: CheckoutRequest, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "currency_code", "customer_id", "total", "completed_at", "items.id", "items.variant_id", "items.quantity", "region.payment_providers.id", "payment_collection.id"],
    filters: { id: input.cart_id },
  })
  const cart = carts[0] as CartRow | undefined
  const notFound = () => new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${input.cart_id} was not found.`, SHOPPER_ERROR.cart_not_found)
  if (!cart) {
    throw notFound()
  }
  if (cart.completed_at) {
    throw refuse("This cart is already completed.", SHOPPER_ERROR.cart_already_completed)
  }
  if (cart.customer_id && cart.customer_id !== input.customer_id) {
    throw notFound()
  }
  if (cart.currency_code.toLowerCase() !== "twd") {
    throw refuse("Subscriptions are charged in TWD only; this cart is in another currency.", SHOPPER_ERROR.currency_not_twd)
  }
  const items = (cart.items ?? []).filter((item) => !!item)
  if (items.length !== 1) {
    throw items.length === 0
      ? refuse("The cart is empty: add the subscription's product first.", SHOPPER_ERROR.subscription_cart_empty)
      : refuse(
          "A subscription cart holds exactly one subscription item (the service charges one amount per period): remove the other items, or buy them in a separate order.",
          SHOPPER_ERROR.subscription_cart_multiple_items
        )
  }
  const [plan] = await subscriptionModule(container).listTwSubscriptionPlans({ id: input.plan_id }, { take: 1 })
  if (!plan || !plan.active) {
    throw refuse(`Subscription plan ${input.plan_id} is not offered.`, SHOPPER_ERROR.subscription_plan_not_offered)
  }
  if (plan.variant_id !== items[0].variant_id) {
    throw refuse("The cart's item is not the product variant this plan is offered for.", SHOPPER_ERROR.subscription_plan_variant_mismatch)
  }
  let amount: number
  try {
    amount = toTwd(cart.total as number, cart.currency_code)
  } catch {
    throw refuse("The cart's total must be a whole TWD amount of at least 1.", SHOPPER_ERROR.amount_not_whole_twd)
  }
  const regionProviders = (cart.region?.payment_providers ?? []).filter((p) => !!p).map((p) => p.id)
  const providerId = input.provider_id ?? regionProviders.find((id) => isProviderOf("hosted-checkout", id))
  if (!providerId || !regionProviders.includes(providerId) || !isProviderOf("hosted-checkout", providerId)) {
    throw refuse("No hosted-checkout payment provider is enabled in the cart's region.", SHOPPER_ERROR.subscription_provider_unavailable)
  }
  const providerKey = providerId.replace(/^pp_/, "")
  // Refuses a provider of the region that is not one of this plugin's.
  try {
    hostedApi(container, providerKey)
  } catch (error) {
    throw withShopperCode(error, SHOPPER_ERROR.subscription_provider_unavailable)
  }
  if (input.saved_card_id) {
    await checkSavedCard(container, input.saved_card_id, input.customer_id, providerId)
  }

  const today = taipeiDate(new Date())
  const start = plan.kind === "scheduled" && plan.first_charge_delay_days > 0 ? taipeiDate(new Date(Date.now() + plan.first_charge_delay_days * DAY_MS)) : undefined
  if (start && compareCalendarDates(start, addMonths(today, 12)) >= 0) {
    throw refuse("The plan's first charge would be 12 months or more away; the service allows less.", SHOPPER_ERROR.subscription_start_too_far)
  }
  const checkout: CheckoutTerms = {
    cart_id: cart.id,
    customer_id: input.customer_id,
    transfer_cart: !cart.customer_id,
    payment_collection_id: cart.payment_collection?.id ?? null,
    provider_id: providerId,
    provider_key: providerKey,
    terms: {
      kind: plan.kind,
      interval_months: plan.kind === "monthly" ? 1 : plan.interval_months,
      periods_total: plan.periods,
      start_date: start ? formatCalendarDate(start) : null,
      amount,
      plan_id: plan.id,
    },
  }
  return new StepResponse(checkout)
})

/** The card must be an active saved card of this customer, bound with the same provider (a token is its merchant's). */
async function checkSavedCard(container: MedusaContainer, savedCardId: string, customerId: string, providerId: string) {
  const [card] = container.hasRegistration(TW_SAVED_CARD_MODULE)
    ? await container
        .resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
        .listTwSavedCards({ id: savedCardId, customer_id: customerId, status: "active", provider_id: providerId }, { take: 1, select: ["id"] })
    : []
  if (!card) {
    throw refuse(`Saved card ${savedCardId} is not an active saved card of this customer.`, SHOPPER_ERROR.saved_card_not_yours)
  }
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createPaymentCollectionForCartWorkflow, createPaymentSessionsWorkflow, transferCartCustomerWorkflow } from "@medusajs/medusa/core-flows"
import { addMonths, compareCalendarDates, formatCalendarDate, taipeiDate } from "../../../../../lib/hosted"
import { TW_SUBSCRIPTION_MODULE } from "../../../../../modules/tw-subscription"
import { toTwd } from "../../../../../providers/core/money"
import { isProviderOf } from "../../../../../providers/core/provider-keys"
import { sealSubscriptionTerms, SUBSCRIPTION_CONTEXT_KEY } from "../../../../../providers/hosted-checkout/subscription-session"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../../../../modules/tw-saved-card"
import { hostedApi } from "../../../../../workflows/subscriptions/hosted-api"
import { cartInvoiceSessionData } from "../../../../cart-invoice-facts"
import { checkoutBodySchema, parseInput } from "../../../../tw-subscriptions-shared/input"
import { subscriptions, subscriptionView } from "../../../../tw-subscriptions-shared/views"

const DAY_MS = 24 * 3_600_000

interface CartRow {
  id: string
  currency_code: string
  customer_id: string | null
  region_id: string
  total: unknown
  items?: Array<{ id: string; variant_id: string | null; quantity: number } | null>
  region?: { payment_providers?: Array<{ id: string } | null> | null } | null
  payment_collection?: { id: string } | null
}

const refuse = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, message)

/**
 * POST /store/carts/:id/tw-subscription
 *
 * Starts a subscription checkout. The storefront only names the plan: the
 * amount is the cart's total, the terms come from the plan, and the payment
 * session is created here with the terms sealed in its context, so the
 * provider opens the recurring or scheduled page. A session created through
 * the storefront's own route is always a one-time payment.
 *
 * With `saved_card_id` (a saved card of the customer's) there is no page:
 * the storefront completes the cart, and the completion subscribes the card
 * (`POST /token/subscriptions`, saved-card-completion.ts), charging the first
 * period at once or creating the schedule of a later first charge.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = req.auth_context?.actor_type === "customer" ? req.auth_context.actor_id : undefined
  if (!customerId) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Log in to subscribe: subscriptions belong to a customer account.")
  }
  const body = parseInput(checkoutBodySchema, req.body, "subscription checkout")
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "currency_code", "customer_id", "region_id", "total", "completed_at", "items.id", "items.variant_id", "items.quantity", "region.payment_providers.id", "payment_collection.id"],
    filters: { id: req.params.id },
  })
  const cart = carts[0] as (CartRow & { completed_at?: unknown }) | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${req.params.id} was not found.`)
  }
  if (cart.completed_at) {
    throw refuse("This cart is already completed.")
  }
  if (cart.customer_id && cart.customer_id !== customerId) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${req.params.id} was not found.`)
  }
  if (cart.currency_code.toLowerCase() !== "twd") {
    throw refuse("Subscriptions are charged in TWD only; this cart is in another currency.")
  }
  const items = (cart.items ?? []).filter((item) => !!item)
  if (items.length !== 1) {
    throw refuse(
      items.length === 0
        ? "The cart is empty: add the subscription's product first."
        : "A subscription cart holds exactly one subscription item (the service charges one amount per period): remove the other items, or buy them in a separate order."
    )
  }
  const module = subscriptions(req.scope)
  const [plan] = await module.listTwSubscriptionPlans({ id: body.plan_id }, { take: 1 })
  if (!plan || !plan.active) {
    throw refuse(`Subscription plan ${body.plan_id} is not offered.`)
  }
  if (plan.variant_id !== items[0].variant_id) {
    throw refuse("The cart's item is not the product variant this plan is offered for.")
  }
  let amount: number
  try {
    amount = toTwd(cart.total as number, cart.currency_code)
  } catch {
    throw refuse("The cart's total must be a whole TWD amount of at least 1.")
  }
  const regionProviders = (cart.region?.payment_providers ?? []).filter((p) => !!p).map((p) => p.id)
  const providerId = body.provider_id ?? regionProviders.find((id) => isProviderOf("hosted-checkout", id))
  if (!providerId || !regionProviders.includes(providerId) || !isProviderOf("hosted-checkout", providerId)) {
    throw refuse("No hosted-checkout payment provider is enabled in the cart's region.")
  }
  const providerKey = providerId.replace(/^pp_/, "")
  const api = hostedApi(req.scope, providerKey)
  if (body.saved_card_id) {
    await checkSavedCard(req, body.saved_card_id, customerId, providerId)
  }

  const today = taipeiDate(new Date())
  const start = plan.kind === "scheduled" && plan.first_charge_delay_days > 0 ? taipeiDate(new Date(Date.now() + plan.first_charge_delay_days * DAY_MS)) : undefined
  if (start && compareCalendarDates(start, addMonths(today, 12)) >= 0) {
    throw refuse("The plan's first charge would be 12 months or more away; the service allows less.")
  }

  if (!cart.customer_id) {
    await transferCartCustomerWorkflow(req.scope).run({ input: { id: cart.id, customer_id: customerId } })
  }
  // One subscription per cart: a new checkout of the same cart (a changed plan, an expired page) reuses it.
  const [existing] = await module.listTwSubscriptions({ cart_id: cart.id, status: "pending" }, { take: 1 })
  const terms = {
    kind: plan.kind,
    interval_months: plan.kind === "monthly" ? 1 : plan.interval_months,
    periods_total: plan.periods,
    start_date: start ? formatCalendarDate(start) : null,
    amount,
    plan_id: plan.id,
  }
  const row = existing
    ? await module.updateTwSubscriptions({ id: existing.id, ...terms, provider_key: providerKey })
    : await module.createTwSubscriptions({ ...terms, status: "pending", customer_id: customerId, cart_id: cart.id, provider_key: providerKey, currency_code: "twd" })
  if (!existing) {
    await req.scope.resolve(ContainerRegistrationKeys.LINK).create({ [Modules.CUSTOMER]: { customer_id: customerId }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_id: row.id } })
  }

  const collectionId =
    cart.payment_collection?.id ?? (await createPaymentCollectionForCartWorkflow(req.scope).run({ input: { cart_id: cart.id } })).result.id
  const sealed = sealSubscriptionTerms(api.attestor, {
    subscription_id: row.id,
    customer_id: customerId,
    kind: terms.kind,
    interval_months: terms.interval_months,
    periods: terms.periods_total,
    start_date: terms.start_date,
    amount,
  })
  const { result: session } = await createPaymentSessionsWorkflow(req.scope).run({
    input: {
      payment_collection_id: collectionId,
      provider_id: providerId,
      customer_id: customerId,
      data: {
        // The cart's buyer and lines, as the store middleware gives a one-time session: every period is invoiced on them.
        ...(await cartInvoiceSessionData(req.scope, collectionId)),
        ...(body.return_path ? { return_path: body.return_path } : {}),
        ...(body.invoice ? { invoice: body.invoice } : {}),
        ...(body.saved_card_id ? { savedCardId: body.saved_card_id } : {}),
      },
      context: { [SUBSCRIPTION_CONTEXT_KEY]: sealed },
    },
  })
  const updated = await module.updateTwSubscriptions({ id: row.id, payment_session_id: session.id })
  res.json({
    subscription: subscriptionView(updated),
    payment_session: { id: session.id, provider_id: session.provider_id, status: session.status, amount: session.amount, data: session.data },
  })
}

/** The card must be an active saved card of this customer, bound with the same provider (a token is its merchant's). */
async function checkSavedCard(req: AuthenticatedMedusaRequest, savedCardId: string, customerId: string, providerId: string) {
  const [card] = req.scope.hasRegistration(TW_SAVED_CARD_MODULE)
    ? await req.scope
        .resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
        .listTwSavedCards({ id: savedCardId, customer_id: customerId, status: "active", provider_id: providerId }, { take: 1, select: ["id"] })
    : []
  if (!card) {
    throw refuse(`Saved card ${savedCardId} is not an active saved card of this customer.`)
  }
}

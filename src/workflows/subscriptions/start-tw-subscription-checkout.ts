import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  acquireLockStep,
  createPaymentCollectionForCartWorkflow,
  createPaymentSessionsWorkflow,
  releaseLockStep,
  transferCartCustomerWorkflow,
} from "@medusajs/medusa/core-flows"
import type { InvoiceInfo } from "../../lib/hosted"
import { TW_SUBSCRIPTION_MODULE } from "../../modules/tw-subscription"
import { sealSubscriptionTerms, SUBSCRIPTION_CONTEXT_KEY } from "../../providers/hosted-checkout/public"
import { cartInvoiceSessionData } from "../../payments/cart-invoice-facts"
import { type CheckoutRequest, type CheckoutTerms, checkoutTermsStep } from "./steps/validate-tw-subscription-checkout"
import { hostedApi } from "../../providers/plugin-hosted-api"
import { subscriptionModule } from "../../subscriptions/subscription-module"

export const startTwSubscriptionCheckoutWorkflowId = "start-tw-subscription-checkout"

export interface StartTwSubscriptionCheckoutInput extends CheckoutRequest {
  return_path?: string
  invoice?: InvoiceInfo
}

/** The fields a new checkout of the same cart changes on its pending row: what the compensation puts back. */
type Previous = Pick<Awaited<ReturnType<ReturnType<typeof subscriptionModule>["retrieveTwSubscription"]>>, "id" | "kind" | "interval_months" | "periods_total" | "start_date" | "amount" | "plan_id" | "provider_key">

type Saved = { id: string; created: boolean }
type SaveUndo = { created: string } | { previous: Previous }

/**
 * One subscription per cart: a new checkout of the same cart (a changed plan,
 * an expired page) reuses its pending row. Undone: a created row is deleted,
 * a reused one gets its terms back.
 */
const saveSubscriptionStep = createStep(
  "save-tw-subscription-checkout",
  async (checkout: CheckoutTerms, { container }) => {
    const module = subscriptionModule(container)
    const [existing] = await module.listTwSubscriptions({ cart_id: checkout.cart_id, status: "pending" }, { take: 1 })
    if (existing) {
      const previous: Previous = {
        id: existing.id,
        kind: existing.kind,
        interval_months: existing.interval_months,
        periods_total: existing.periods_total,
        start_date: existing.start_date,
        amount: existing.amount,
        plan_id: existing.plan_id,
        provider_key: existing.provider_key,
      }
      await module.updateTwSubscriptions({ id: existing.id, ...checkout.terms, provider_key: checkout.provider_key })
      return new StepResponse<Saved, SaveUndo>({ id: existing.id, created: false }, { previous })
    }
    const row = await module.createTwSubscriptions({
      ...checkout.terms,
      status: "pending",
      customer_id: checkout.customer_id,
      cart_id: checkout.cart_id,
      provider_key: checkout.provider_key,
      currency_code: "twd",
    })
    return new StepResponse<Saved, SaveUndo>({ id: row.id, created: true }, { created: row.id })
  },
  async (undo, { container }) => {
    if (undo && "created" in undo) {
      await subscriptionModule(container).deleteTwSubscriptions(undo.created)
    } else if (undo) {
      await subscriptionModule(container).updateTwSubscriptions(undo.previous)
    }
  }
)

/**
 * The customer's link to a new row. A step of its own rather than core's
 * `createRemoteLinkStep` run under `when`: that one's link was left behind
 * when a later step failed (workflow-compensation.spec.ts).
 */
const linkCustomerStep = createStep(
  "link-tw-subscription-customer",
  async ({ customer_id, subscription_id }: { customer_id: string; subscription_id: string }, { container }) => {
    const link = { [Modules.CUSTOMER]: { customer_id }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_id: subscription_id } }
    await container.resolve(ContainerRegistrationKeys.LINK).create(link)
    return new StepResponse(undefined, link)
  },
  async (link, { container }) => {
    if (link) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss(link)
    }
  }
)

/** The session's input: the plan sealed for the provider (only this route opens a recurring page) and the cart's invoice facts. */
const sessionInputStep = createStep(
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

/** The row learns its session (the cancel drops it; a paid page finds the row by it). Undone: the previous session id back. */
const attachSessionStep = createStep(
  "attach-tw-subscription-session",
  async ({ id, payment_session_id }: { id: string; payment_session_id: string }, { container }) => {
    const module = subscriptionModule(container)
    const before = await module.retrieveTwSubscription(id, { select: ["id", "payment_session_id"] })
    const updated = await module.updateTwSubscriptions({ id, payment_session_id })
    return new StepResponse(updated, { id, payment_session_id: before.payment_session_id })
  },
  async (previous, { container }) => {
    if (previous) {
      await subscriptionModule(container).updateTwSubscriptions(previous)
    }
  }
)

/**
 * `POST /store/carts/:id/tw-subscription`: under the cart's lock, checks
 * everything first (checkout-terms.ts), then gives a customerless cart to the
 * customer, saves the pending subscription and links it to the customer,
 * creates the cart's payment collection if it has none and the hosted payment
 * session with the plan sealed in its context, and records the session on the
 * subscription. A failing step undoes the ones before it: core's sub-workflows
 * revert their own writes (the session, the collection, the cart's customer).
 */
export const startTwSubscriptionCheckoutWorkflow = createWorkflow(startTwSubscriptionCheckoutWorkflowId, (input: StartTwSubscriptionCheckoutInput) => {
  // As core's cart workflows; the sub-workflows below skip their own lock of the same cart.
  acquireLockStep({ key: input.cart_id, timeout: 2, ttl: 30 })
  const checkout = checkoutTermsStep(input)

  when("tw-transfer-cart-customer", { checkout }, ({ checkout }) => checkout.transfer_cart).then(() => {
    transferCartCustomerWorkflow.runAsStep({ input: { id: checkout.cart_id, customer_id: checkout.customer_id } })
  })

  const saved = saveSubscriptionStep(checkout)
  when("tw-link-subscription-customer", { saved }, ({ saved }) => saved.created).then(() => {
    linkCustomerStep(transform({ checkout, saved }, ({ checkout, saved }) => ({ customer_id: checkout.customer_id, subscription_id: saved.id })))
  })

  const createdCollection = when("tw-create-payment-collection", { checkout }, ({ checkout }) => !checkout.payment_collection_id).then(() =>
    createPaymentCollectionForCartWorkflow.runAsStep({ input: { cart_id: checkout.cart_id } })
  )
  const sessionInput = sessionInputStep(
    transform({ input, checkout, saved, createdCollection }, ({ input, checkout, saved, createdCollection }) => ({
      input,
      checkout,
      subscription_id: saved.id,
      payment_collection_id: checkout.payment_collection_id ?? createdCollection!.id,
    }))
  )
  const session = createPaymentSessionsWorkflow.runAsStep({ input: sessionInput })
  const subscription = attachSessionStep(transform({ saved, session }, ({ saved, session }) => ({ id: saved.id, payment_session_id: session.id })))
  releaseLockStep({ key: input.cart_id })
  return new WorkflowResponse({ subscription, payment_session: session })
})

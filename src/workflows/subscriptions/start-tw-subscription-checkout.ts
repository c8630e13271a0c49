import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  acquireLockStep,
  createPaymentCollectionForCartWorkflow,
  createPaymentSessionsWorkflow,
  releaseLockStep,
  transferCartCustomerWorkflow,
} from "@medusajs/medusa/core-flows"
import type { InvoiceInfo } from "../../lib/hosted"
import { attachSessionStep } from "./steps/attach-tw-subscription-session"
import { linkCustomerStep } from "./steps/link-tw-subscription-customer"
import { sessionInputStep } from "./steps/prepare-tw-subscription-session"
import { saveSubscriptionStep } from "./steps/save-tw-subscription-checkout"
import { type CheckoutRequest, checkoutTermsStep } from "./steps/validate-tw-subscription-checkout"

export const startTwSubscriptionCheckoutWorkflowId = "start-tw-subscription-checkout"

export interface StartTwSubscriptionCheckoutInput extends CheckoutRequest {
  return_path?: string
  invoice?: InvoiceInfo
}

/**
 * `POST /store/carts/:id/tw-subscription`: under the cart's lock, checks
 * everything first (`validate-tw-subscription-checkout`), then gives a customerless cart to the
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

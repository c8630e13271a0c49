import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import { hostedSessionOf } from "./hosted-session.js"
import { checkedInvoice } from "./invoice-choice.js"
import type { InvoiceInfo } from "./invoice-info.js"
import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"
import type { PaymentStart } from "./payment-start.js"
import { checkedReturnPath } from "./return-path.js"
import { storeCall } from "./store-answer.js"
import type { Subscription } from "./subscriptions.js"

export interface SubscriptionCheckoutInput {
  /** The plan the cart's one line is offered on (`twplan_…`). */
  planId: string
  invoice?: InvoiceInfo
  /** Subscribe with this saved card: no page, the completion charges it (or schedules a later first charge). */
  savedCardId?: string
  returnPath?: string
  providerId?: string
}

export type SubscriptionCheckoutStart = PaymentStart & { subscription: Subscription; sessionId: string }

interface CheckoutAnswer {
  subscription: Subscription
  payment_session: { id: string; provider_id: string; status: string; amount: number; data: Record<string, unknown> | null }
}

/**
 * Starts a subscription on a cart (`POST /store/carts/:id/tw-subscription`,
 * logged-in customers only): the store takes the amount from the cart and
 * the terms from the plan, and creates the payment session itself. The
 * shopper pays the first period on the service's recurring or scheduled page
 * and comes back to the return page; with a saved card the storefront
 * completes the cart at once.
 */
export async function startSubscriptionCheckout(sdk: Medusa, cartId: string, input: SubscriptionCheckoutInput, headers?: ClientHeaders): Promise<SubscriptionCheckoutStart> {
  const invoice = input.invoice === undefined ? undefined : checkedInvoice(input.invoice)
  const returnPath = checkedReturnPath(input.returnPath)
  const body = {
    plan_id: input.planId,
    ...(input.providerId ? { provider_id: input.providerId } : {}),
    ...(returnPath ? { return_path: returnPath } : {}),
    ...(invoice ? { invoice } : {}),
    ...(input.savedCardId ? { saved_card_id: input.savedCardId } : {}),
  }
  const { subscription, payment_session } = await storeCall(() =>
    sdk.client.fetch<CheckoutAnswer>(`/store/carts/${encodeURIComponent(cartId)}/tw-subscription`, { method: "POST", body, headers })
  )
  if (input.savedCardId) {
    return { next: "complete_cart", subscription, sessionId: payment_session.id }
  }
  const session = hostedSessionOf([payment_session])
  if (!session?.checkoutUrl) {
    throw new TwPaymentError("The payment page could not be opened. Please try again.", { code: KIT_ERROR_CODES.paymentUnavailable })
  }
  return { next: "redirect", url: session.checkoutUrl, ...(session.expiresAt ? { expiresAt: session.expiresAt } : {}), subscription, sessionId: session.id }
}

/**
 * The cart metadata key naming the plan a subscription cart was started on
 * (the storefront sets it when it puts the plan's variant alone in a new
 * cart); the store reads only the checkout's `plan_id`, so this is the
 * storefront's own note for its payment step.
 */
export const SUBSCRIPTION_PLAN_METADATA_KEY = "tw_subscription_plan_id"

/** The plan a subscription cart was started on, or undefined for a one-time purchase. */
export function subscriptionPlanIdOf(cart: { metadata?: Record<string, unknown> | null }): string | undefined {
  const planId = cart.metadata?.[SUBSCRIPTION_PLAN_METADATA_KEY]
  return typeof planId === "string" && planId ? planId : undefined
}

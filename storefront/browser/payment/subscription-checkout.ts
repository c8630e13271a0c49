import type { HttpTypes } from "@medusajs/types"
import { HOSTED_CHECKOUT_PROVIDER_ID, listSubscriptionPlans, startSubscriptionCheckout } from "medusa-payment-tw-storefront"
import { subscriptionPlanIdOf } from "../cart"
import { loggedInCustomer, loginHref } from "../customer"
import { el } from "../element"
import { sdk } from "../medusa"
import { rememberSubscriptionCheckout } from "../order-subscription"
import { describeTerms } from "../subscription-plans"
import { readInvoiceChoice, rememberInvoiceChoice, renderInvoiceChoice } from "./invoice-choice"
import type { PaymentCheckout, PaymentOption, PaymentStart } from "./payment-option"

/**
 * The payment step of a subscription cart: the only option it offers. The
 * store's subscription route creates the hosted session with the plan's
 * terms (docs/subscriptions.md), so the shopper pays the first period on the
 * service's recurring (or scheduled) page, by card, and comes back to
 * /checkout/hosted/return like any hosted payment.
 */
export const subscriptionCheckoutOption: PaymentOption = {
  id: "subscription",
  providerId: HOSTED_CHECKOUT_PROVIDER_ID,
  label: "Subscribe: pay by card on the payment service's page",
  hint: "You are taken to the payment service's secure page to pay the first period by card; it then charges the same card on each due date.",

  renderFields(container: HTMLElement, checkout: PaymentCheckout) {
    const terms = el("p", { id: "subscription-terms", "data-testid": "subscription-terms" }, "Loading the plan…")
    const login = el("p", { id: "subscription-login", class: "error", hidden: true })
    container.replaceChildren(terms, login)
    renderInvoiceChoice(container)
    void showTerms(checkout, terms, login)
  },

  async start(cart: HttpTypes.StoreCart): Promise<PaymentStart> {
    const planId = subscriptionPlanIdOf(cart)
    if (!planId) {
      throw new Error("This cart is not a subscription cart.")
    }
    // Refused here, naming the field, before anything is created at the service.
    const invoice = readInvoiceChoice()
    const start = await startSubscriptionCheckout(sdk, cart.id, { planId, invoice })
    await rememberInvoiceChoice(invoice)
    rememberSubscriptionCheckout(cart.id, start.subscription.id)
    return start
  },
}

/** What the shopper agrees to, in the cart's own total; a guest is sent to log in first. */
async function showTerms(checkout: PaymentCheckout, terms: HTMLElement, login: HTMLElement) {
  const cart = checkout.cart
  const item = cart.items?.[0]
  const [plans, customer] = await Promise.all([item?.variant_id ? listSubscriptionPlans(sdk, { variantId: item.variant_id }) : Promise.resolve([]), loggedInCustomer()])
  const plan = plans.find((p) => p.id === subscriptionPlanIdOf(cart))
  if (!plan) {
    terms.textContent = "This subscription is no longer offered. Remove it from your cart."
    terms.classList.add("error")
    checkout.setPayable(false)
    return
  }
  terms.replaceChildren(
    el("strong", {}, plan.title),
    `: ${describeTerms({ interval_months: plan.interval_months, periods: plan.periods }, Number(cart.total), cart.currency_code)} (this order's total, delivery included). Cancel any time in your account.`
  )
  if (!customer) {
    login.replaceChildren("Subscriptions belong to a customer account: ", el("a", { href: loginHref("/checkout"), id: "subscription-login-link" }, "log in or create an account"), " to subscribe.")
    login.hidden = false
    checkout.setPayable(false)
  }
}

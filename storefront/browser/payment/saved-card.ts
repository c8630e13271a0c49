import type { HttpTypes } from "@medusajs/types"
import { HOSTED_CHECKOUT_PROVIDER_ID, startSavedCardPayment, startSubscriptionCheckout } from "medusa-payment-tw-storefront"
import { subscriptionPlanIdOf } from "../cart"
import { loggedInCustomer } from "../customer"
import { el } from "../element"
import { sdk } from "../medusa"
import { rememberSubscriptionCheckout } from "../order-subscription"
import { activeSavedCards, cardName } from "../saved-cards"
import { rememberedInvoiceChoice } from "./invoice-choice"
import type { PaymentCheckout, PaymentOption, PaymentStart } from "./payment-option"

/**
 * Paying with one of the logged-in customer's saved cards ("•••• 4242"),
 * without leaving the store (docs/saved-cards.md): the payment session names
 * the card, and completing the cart charges it. The e-invoice is the
 * customer's last choice (member carrier when none).
 */

/** Offered to a logged-in customer with at least one card that can be charged. */
async function hasSavedCard(): Promise<boolean> {
  return Boolean(await loggedInCustomer()) && (await activeSavedCards()).length > 0
}

/** The card radios; the first is chosen. */
function renderCards(container: HTMLElement, checkout: PaymentCheckout) {
  const status = el("p", { class: "status" }, "Loading your cards…")
  container.replaceChildren(status)
  activeSavedCards()
    .then((cards) => {
      if (!cards.length) {
        status.textContent = "You have no saved card any more: choose another way to pay."
        checkout.setPayable(false)
        return
      }
      container.replaceChildren(
        el(
          "fieldset",
          { id: "saved-cards-choice", "data-testid": "saved-cards-choice" },
          el("legend", {}, "Card"),
          ...cards.map((card, index) =>
            el(
              "div",
              { class: "choice" },
              el("input", { type: "radio", name: "saved_card", id: `saved-card-${card.id}`, value: card.id, checked: index === 0 }),
              " ",
              el("label", { for: `saved-card-${card.id}`, "data-testid": "saved-card-choice" }, cardName(card))
            )
          )
        )
      )
    })
    .catch(() => {
      status.textContent = "Your saved cards could not be loaded: choose another way to pay."
      checkout.setPayable(false)
    })
}

function chosenCard(): string {
  const id = document.querySelector<HTMLInputElement>('input[name="saved_card"]:checked')?.value
  if (!id) {
    throw new Error("Choose one of your saved cards.")
  }
  return id
}

export const savedCardOption: PaymentOption = {
  id: "saved-card",
  providerId: HOSTED_CHECKOUT_PROVIDER_ID,
  label: "Pay with a saved card",
  hint: "Charged at once; you stay in the store.",
  available: hasSavedCard,
  renderFields: renderCards,

  async start(cart: HttpTypes.StoreCart): Promise<PaymentStart> {
    const savedCardId = chosenCard()
    const [invoice, customer] = await Promise.all([rememberedInvoiceChoice(), loggedInCustomer()])
    if (!customer) {
      throw new Error("Log in to pay with a saved card.")
    }
    return startSavedCardPayment(sdk, cart, { savedCardId, customerId: customer.id, invoice })
  },
}

/** A subscription cart's other option: the first period charged on a saved card (or its schedule created), then every period on it. */
export const savedCardSubscriptionOption: PaymentOption = {
  id: "saved-card-subscription",
  providerId: HOSTED_CHECKOUT_PROVIDER_ID,
  label: "Subscribe with a saved card",
  hint: "The first period is charged at once (or on the plan's first date), then the same card on each due date; you stay in the store.",
  available: hasSavedCard,
  renderFields: renderCards,

  async start(cart: HttpTypes.StoreCart): Promise<PaymentStart> {
    const planId = subscriptionPlanIdOf(cart)
    if (!planId) {
      throw new Error("This cart is not a subscription cart.")
    }
    const savedCardId = chosenCard()
    const invoice = await rememberedInvoiceChoice()
    const start = await startSubscriptionCheckout(sdk, cart.id, { planId, savedCardId, invoice })
    rememberSubscriptionCheckout(cart.id, start.subscription.id)
    return start
  },
}

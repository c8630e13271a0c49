import type { HttpTypes } from "@medusajs/types"
import { completeCart } from "medusa-payment-tw-storefront"
import { chooseShipping, currentCart, forgetCart, subscriptionPlanIdOf, updateCart } from "../cart"
import { byId, el, showMessage } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { takeSubscriptionCheckout } from "../order-subscription"
import { renderLines, renderTotals } from "../order-summary"
import { runPage, showCartCount } from "../page"
import { PAYMENT_OPTIONS } from "../payment/options"
import type { PaymentCheckout, PaymentOption } from "../payment/payment-option"
import { savedCardSubscriptionOption } from "../payment/saved-card"
import { subscriptionCheckoutOption } from "../payment/subscription-checkout"
import { storeErrorMessage } from "../store-error"

/**
 * Three steps on one page: contact and address, delivery, payment. A cart
 * that already has an address and a delivery option (the shopper coming back
 * after a failed payment) opens at the payment step.
 */
let cart: HttpTypes.StoreCart

/** Per option, whether "Place order and pay" may be pressed now (a card form: only with complete card details). */
const payable = new Map<string, boolean>()
/** True while a payment is being started, so that no option re-enables the button meanwhile. */
let paying = false
/** A failure an option's return page sent the shopper back with: that option is chosen and the message shown. */
let returned: { option: PaymentOption; message: string } | undefined
/** The options this cart may be paid with: a subscription cart only starts its subscription. */
let offered: readonly PaymentOption[] = PAYMENT_OPTIONS

const ADDRESS_FIELDS = ["first_name", "last_name", "phone", "postal_code", "city", "address_1", "country_code"] as const

function showSummary() {
  renderLines(byId("summary-lines"), cart.items, cart.currency_code)
  renderTotals(byId("summary-totals"), cart, { shippingChosen: Boolean(cart.shipping_methods?.length) })
}

/** Runs a step's submission with its button disabled and its error line updated; `enabled` says whether the button may be used afterwards. */
function submitStep(form: HTMLFormElement, errorId: string, work: () => Promise<void>, enabled: () => boolean = () => true) {
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
    button.disabled = true
    showMessage(byId(errorId), undefined)
    work()
      .catch((error: unknown) => showMessage(byId(errorId), storeErrorMessage(error)))
      .finally(() => {
        button.disabled = !enabled()
      })
  })
}

function fillAddress() {
  const form = byId<HTMLFormElement>("address-form")
  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement
  if (cart.email) {
    input("email").value = cart.email
  }
  for (const name of ADDRESS_FIELDS) {
    const value = cart.shipping_address?.[name]
    if (value) {
      input(name).value = value
    }
  }
}

async function saveAddress() {
  const data = new FormData(byId<HTMLFormElement>("address-form"))
  const address = Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, String(data.get(name) ?? "").trim()]))
  cart = await updateCart(cart.id, { email: String(data.get("email")).trim(), shipping_address: address, billing_address: address })
  showSummary()
  await showShipping()
}

async function showShipping() {
  const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cart.id })
  const current = cart.shipping_methods?.[0]?.shipping_option_id
  const container = byId("shipping-options")
  if (!shipping_options.length) {
    container.replaceChildren(el("p", { class: "error" }, "We do not deliver to this address yet."))
  } else {
    container.replaceChildren(
      ...shipping_options.map((option, index) =>
        el(
          "div",
          { class: "choice" },
          el("input", { type: "radio", name: "shipping_option", id: `shipping-${option.id}`, value: option.id, required: true, checked: current ? option.id === current : index === 0 }),
          " ",
          el("label", { for: `shipping-${option.id}` }, `${option.name} (${formatMoney(option.calculated_price?.calculated_amount ?? option.amount, cart.currency_code)})`),
          option.type?.description ? el("span", { class: "hint" }, option.type.description) : null
        )
      )
    )
  }
  byId("step-shipping").hidden = false
}

async function saveShipping() {
  const optionId = new FormData(byId<HTMLFormElement>("shipping-form")).get("shipping_option")
  if (!optionId) {
    throw new Error("Choose a delivery option.")
  }
  cart = await chooseShipping(cart.id, String(optionId))
  showSummary()
  await showPayment()
}

/**
 * Lists the payment options whose provider the cart's region enables. Each
 * draws its own fields when it is first chosen, so a card form (and its
 * payment session) is made only for a shopper who wants to pay by card.
 */
async function showPayment() {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: cart.region_id! })
  const enabled = new Set(payment_providers.map((provider) => provider.id))
  const usable = await Promise.all(offered.map((option) => (option.available ? option.available().catch(() => false) : Promise.resolve(true))))
  const options = offered.filter((option, index) => enabled.has(option.providerId) && usable[index])
  const container = byId("payment-options")
  payable.clear()
  if (!options.length) {
    container.replaceChildren(el("p", { class: "error" }, "No payment method is available for this order."))
  } else {
    const first = returned && options.includes(returned.option) ? returned.option : options[0]
    container.replaceChildren(...options.map((option) => paymentChoice(option, option === first)))
    showChosenFields()
  }
  if (returned) {
    showMessage(byId("payment-error"), returned.message)
    returned = undefined
  }
  refreshPayButton()
  byId("step-payment").hidden = false
}

function paymentChoice(option: PaymentOption, checked: boolean): HTMLElement {
  const inputId = `payment-option-${option.id}`
  return el(
    "div",
    { class: "choice", "data-testid": inputId },
    el("input", { type: "radio", name: "payment_option", id: inputId, value: option.id, checked }),
    " ",
    el("label", { for: inputId }, option.label),
    el("span", { class: "hint" }, option.hint),
    el("div", { class: "option-fields", id: `${inputId}-fields` })
  )
}

function chosenOption(): PaymentOption | undefined {
  const id = new FormData(byId<HTMLFormElement>("payment-form")).get("payment_option")
  return offered.find((option) => option.id === id)
}

function canPay(): boolean {
  const option = chosenOption()
  return option !== undefined && payable.get(option.id) !== false
}

function refreshPayButton() {
  byId<HTMLButtonElement>("pay").disabled = paying || !canPay()
}

/** What an option's fields may ask of this page. */
function checkoutFor(option: PaymentOption): PaymentCheckout {
  return {
    get cart() {
      return cart
    },
    setPayable(value: boolean) {
      payable.set(option.id, value)
      refreshPayButton()
    },
  }
}

function showChosenFields() {
  const chosen = chosenOption()
  for (const option of offered) {
    const fields = document.getElementById(`payment-option-${option.id}-fields`)
    if (!fields) {
      continue
    }
    fields.hidden = option !== chosen
    if (option === chosen && !fields.dataset.drawn) {
      fields.dataset.drawn = "true"
      option.renderFields(fields, checkoutFor(option))
    }
  }
  refreshPayButton()
}

async function pay() {
  const option = chosenOption()
  if (!option) {
    throw new Error("Choose how you would like to pay.")
  }
  paying = true
  try {
    const start = await option.start(cart)
    if (start.next === "redirect") {
      location.assign(start.url)
      return
    }
    const completion = await completeCart(sdk, cart.id)
    // A subscription started on a saved card: its first order names it, as the hosted return page does.
    const subscriptionId = takeSubscriptionCheckout(cart.id)
    if (completion.kind !== "order") {
      // Declined, or a charge the service has not confirmed yet: the store's message says which, and what to do.
      throw new Error(completion.kind === "cart" ? completion.error.message : completion.message)
    }
    forgetCart()
    location.assign(`/orders/${completion.order.id}${subscriptionId ? `?subscription=${encodeURIComponent(subscriptionId)}` : ""}`)
  } finally {
    paying = false
  }
}

/** Reads (and removes from the address, so a reload does not repeat it) a failure an option's return page sent back. */
function takeReturnedFailure() {
  const query = new URLSearchParams(location.search)
  for (const option of offered) {
    const message = option.returnedFailure?.(query)
    if (message) {
      returned = { option, message }
      history.replaceState(null, "", location.pathname)
      return
    }
  }
}

runPage("checkout-status", async () => {
  const found = await currentCart()
  showCartCount(found)
  if (!found?.items?.length) {
    byId("checkout-status").replaceChildren("Your cart is empty. ", el("a", { href: "/" }, "Browse the shop"), ".")
    return
  }
  cart = found
  if (subscriptionPlanIdOf(cart)) {
    offered = [subscriptionCheckoutOption, savedCardSubscriptionOption]
    byId("pay").textContent = "Subscribe and pay"
  }
  takeReturnedFailure()
  byId("checkout-status").hidden = true
  byId("checkout").hidden = false
  showSummary()
  fillAddress()
  submitStep(byId("address-form"), "address-error", saveAddress)
  submitStep(byId("shipping-form"), "shipping-error", saveShipping)
  submitStep(byId("payment-form"), "payment-error", pay, canPay)
  byId("payment-options").addEventListener("change", showChosenFields)

  if (cart.email && cart.shipping_address?.address_1) {
    await showShipping()
    if (cart.shipping_methods?.length) {
      await showPayment()
      byId("step-payment").scrollIntoView()
      byId("step-payment-title").setAttribute("tabindex", "-1")
      byId("step-payment-title").focus()
    }
  }
})

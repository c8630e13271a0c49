import type { HttpTypes } from "@medusajs/types"
import { HOSTED_CHECKOUT_PROVIDER_ID, type HostedMethod, startHostedCheckout } from "medusa-payment-tw-storefront"
import { el } from "../element"
import { sdk } from "../medusa"
import { readInvoiceChoice, rememberInvoiceChoice, renderInvoiceChoice } from "./invoice-choice"
import type { PaymentOption, PaymentStart } from "./payment-option"

/** Methods the hosted page can take, as the demo store's provider options allow them. */
const METHODS: ReadonlyArray<{ value: HostedMethod; label: string; hint: string }> = [
  { value: "card", label: "Credit or debit card", hint: "Visa, Mastercard, JCB." },
  { value: "cvs", label: "Convenience store", hint: "Get a payment code and pay at 7-ELEVEN, FamilyMart, Hi-Life or OKmart within 3 days." },
  { value: "atm", label: "ATM bank transfer", hint: "Get a virtual account and transfer the amount within a day." },
  { value: "linePay", label: "LINE Pay", hint: "Pay with your LINE Pay wallet." },
]

/**
 * "Pay on the hosted page": the shopper picks a method and an e-invoice here
 * (the demo store issues e-invoices), the payment service's page takes the
 * payment, and sends the shopper back to /checkout/hosted/return (or
 * /checkout/hosted/failed).
 */
export const hostedCheckoutOption: PaymentOption = {
  id: "hosted-checkout",
  providerId: HOSTED_CHECKOUT_PROVIDER_ID,
  label: "Pay on the hosted payment page",
  hint: "You are taken to the payment service's secure page, then back here.",

  renderFields(container) {
    const choices = METHODS.map((method, index) =>
      el(
        "div",
        { class: "choice" },
        el("input", { type: "radio", name: "hosted_method", id: `hosted-method-${method.value}`, value: method.value, checked: index === 0 }),
        " ",
        el("label", { for: `hosted-method-${method.value}` }, method.label),
        el("span", { class: "hint" }, method.hint)
      )
    )
    container.replaceChildren(
      el("fieldset", { id: "hosted-methods", "data-testid": "hosted-methods" }, el("legend", {}, "Method on the payment page"), ...choices)
    )
    renderInvoiceChoice(container)
  },

  async start(cart: HttpTypes.StoreCart): Promise<PaymentStart> {
    const value = document.querySelector<HTMLInputElement>('input[name="hosted_method"]:checked')?.value
    const chosen = METHODS.find((method) => method.value === value)?.value ?? "card"
    // Refused here, naming the field, before anything is created at the service.
    const invoice = readInvoiceChoice()
    // The page offers the card plus the methods listed here; listing the chosen one only keeps the page simple.
    const page = await startHostedCheckout(sdk, cart, { methods: [chosen], invoice })
    await rememberInvoiceChoice(invoice)
    return { next: "redirect", url: page.url }
  },
}

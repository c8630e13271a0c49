import type { HttpTypes } from "@medusajs/types"
import { el } from "../element"
import { sdk } from "../medusa"
import { readInvoiceChoice, rememberInvoiceChoice, renderInvoiceChoice } from "./invoice-choice"
import type { PaymentOption, PaymentStart } from "./payment-option"
import { providerId, providerKey } from "../../../src/providers/core/provider-keys"

/** The demo store registers each provider with its identifier as id (medusa-config.ts). */
export const HOSTED_CHECKOUT_PROVIDER_ID = providerId(providerKey("hosted-checkout", "hosted-checkout"))

/** Methods the hosted page can take (the provider's `methods` session data). */
const METHODS = [
  { value: "card", label: "Credit or debit card", hint: "Visa, Mastercard, JCB." },
  { value: "cvs", label: "Convenience store", hint: "Get a payment code and pay at 7-ELEVEN, FamilyMart, Hi-Life or OKmart within 3 days." },
  { value: "atm", label: "ATM bank transfer", hint: "Get a virtual account and transfer the amount within a day." },
  { value: "linePay", label: "LINE Pay", hint: "Pay with your LINE Pay wallet." },
] as const

/** Public session data the provider returns (see the provider's session-data.ts). */
interface HostedSessionData {
  checkoutUrl?: string
}

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
    const chosen = document.querySelector<HTMLInputElement>('input[name="hosted_method"]:checked')?.value ?? "card"
    // Refused here, naming the field, before anything is created at the service.
    const invoice = readInvoiceChoice()
    // The page offers the card plus the methods listed here; listing the chosen one only keeps the page simple.
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
      provider_id: HOSTED_CHECKOUT_PROVIDER_ID,
      data: { methods: [chosen], invoice },
    })
    const session = payment_collection.payment_sessions?.find((s) => s.provider_id === HOSTED_CHECKOUT_PROVIDER_ID)
    const url = (session?.data as HostedSessionData | undefined)?.checkoutUrl
    if (!url) {
      throw new Error("The payment page could not be opened. Please try again.")
    }
    await rememberInvoiceChoice(invoice)
    return { next: "redirect", url }
  },
}

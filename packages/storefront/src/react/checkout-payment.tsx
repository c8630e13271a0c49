"use client"
import type { HttpTypes } from "@medusajs/types"
import { useState } from "react"
import type { CartCompletion } from "../core/cart-completion.js"
import type { HostedMethod } from "../core/hosted-checkout.js"
import { subscriptionPlanIdOf } from "../core/subscription-checkout.js"
import { useTwPayment } from "./context.js"
import { EmbeddedCardElement } from "./embedded-card-element.js"
import { HostedPayButton } from "./hosted-pay-button.js"
import { InvoiceChoice, useInvoiceChoice } from "./invoice-choice.js"
import { type PaymentOption, PaymentOptions } from "./payment-options.js"
import { SavedCardPayButton } from "./saved-card-pay-button.js"
import { SubscribeButton } from "./subscribe-button.js"

export interface CheckoutPaymentProps {
  /** The cart as the checkout has it: its address and delivery method chosen first. */
  cart: HttpTypes.StoreCart
  /** The logged-in customer: their saved cards are offered; a subscription cart needs one. */
  customerId?: string | null
  /**
   * Called with the cart's id when its order is placed without leaving the page (a saved card, or a
   * card payment whose answer came back late): the storefront forgets the cart and shows the order.
   * The official starter's `placeOrder` server action does both.
   */
  onOrder(cartId: string): unknown
  /** The hosted page's methods to offer; all of them by default. */
  methods?: readonly HostedMethod[]
  /** A path the payment service sends the shopper back to, instead of the store's configured return pages. */
  returnPath?: string
  className?: string
}

/**
 * The whole payment step of a checkout, for the plugin's providers:
 * - a one-time purchase: the ways to pay (`PaymentOptions`), the e-invoice
 *   choice for the hosted page and saved cards, and the matching action: the
 *   hosted page, the card form on the page (with its 3-D Secure check), or a
 *   saved card charged at once;
 * - a subscription cart (`SUBSCRIPTION_PLAN_METADATA_KEY`): the e-invoice
 *   choice and "Subscribe", which opens the service's recurring page.
 * The hosted and recurring pages, and the card form's SDK, send the shopper
 * on to the return page (`PaymentReturnView`).
 */
export function CheckoutPayment({ cart, customerId, onOrder, methods, returnPath, className }: CheckoutPaymentProps) {
  const { text } = useTwPayment()
  const [option, setOption] = useState<PaymentOption | undefined>(undefined)
  const invoice = useInvoiceChoice()
  const planId = subscriptionPlanIdOf(cart)
  const completed = (completion: CartCompletion) => {
    if (completion.kind === "order") {
      void onOrder(cart.id)
    }
  }

  if (!cart.email || !cart.shipping_address || !cart.shipping_methods?.length) {
    return (
      <p className={className} role="status" data-testid="checkout-payment" data-state="not_ready">
        {text("checkout_payment_not_ready")}
      </p>
    )
  }
  if (planId) {
    return (
      <div className={className} data-testid="checkout-payment" data-state="subscription">
        <p>{text("subscription_checkout_intro")}</p>
        <InvoiceChoice state={invoice} />
        <SubscribeButton cartId={cart.id} planId={planId} invoice={invoice.check} returnPath={returnPath} onCompleted={completed} />
      </div>
    )
  }
  return (
    <div className={className} data-testid="checkout-payment" data-state="ready">
      <PaymentOptions cart={cart} value={option} onChange={setOption} methods={methods} customerId={customerId ?? undefined} />
      {/* The card form's provider issues no e-invoice; the hosted page and saved cards do. */}
      {option && option.kind !== "embedded_card" ? <InvoiceChoice state={invoice} /> : null}
      {option?.kind === "hosted" ? <HostedPayButton cart={cart} methods={[option.method]} invoice={invoice.check} returnPath={returnPath} /> : null}
      {option?.kind === "embedded_card" ? <EmbeddedCardElement cart={cart} returnPath={returnPath} onPaid={() => void onOrder(cart.id)} /> : null}
      {option?.kind === "saved_card" && customerId ? (
        <SavedCardPayButton cart={cart} customerId={customerId} savedCardId={option.savedCard.id} invoice={invoice.check} onCompleted={completed} />
      ) : null}
    </div>
  )
}

"use client"
import type { HttpTypes } from "@medusajs/types"
import type { ReactNode } from "react"
import { type CartCompletion, completeCart } from "../core/cart-completion.js"
import { KIT_ERROR_CODES, TwPaymentError } from "../core/payment-error.js"
import { startSavedCardPayment } from "../core/saved-card-payment.js"
import { useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import { invoiceFrom, type InvoiceSource } from "./invoice-source.js"

export interface SavedCardPayButtonProps {
  cart: HttpTypes.StoreCart
  /** The logged-in customer (a cart they started as a guest becomes theirs first). */
  customerId: string
  /** The card to charge; the button is disabled without one. */
  savedCardId: string | undefined
  invoice?: InvoiceSource
  providerId?: string
  /** What completing the cart came to; anything but an order is also shown under the button. */
  onCompleted(completion: CartCompletion): void
  className?: string
  /** The button's text; the catalogue's `saved_card_pay` by default. */
  children?: ReactNode
}

/** Why a completion placed no order, as the catalogue's code. */
const codeOf = (completion: Exclude<CartCompletion, { kind: "order" }>): string =>
  completion.kind === "declined" ? completion.code : completion.kind === "payment_pending" ? "payment_pending" : KIT_ERROR_CODES.paymentNotCompleted

/**
 * "Pay with this card": a session naming the saved card
 * (`startSavedCardPayment`), then the completion that charges it
 * (`completeCart`), without leaving the store.
 */
export function SavedCardPayButton({ cart, customerId, savedCardId, invoice, providerId, onCompleted, className, children }: SavedCardPayButtonProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const { busy, error, setError, run } = useBusyAction()

  const pay = () => {
    const checked = invoiceFrom(invoice)
    if (checked === false || !savedCardId) {
      return
    }
    void run(async () => {
      await startSavedCardPayment(sdk, cart, { savedCardId, customerId, ...(checked ? { invoice: checked } : {}), ...(providerId ? { providerId } : {}) }, headers)
      const completion = await completeCart(sdk, cart.id, { ...(headers ? { headers } : {}) })
      if (completion.kind !== "order") {
        setError(new TwPaymentError("message" in completion ? completion.message : completion.error.message, { code: codeOf(completion) }))
      }
      onCompleted(completion)
    })
  }

  return (
    <div className={className}>
      <button type="button" className={classNames.button} onClick={pay} disabled={busy || !savedCardId} aria-busy={busy} data-testid="saved-card-pay">
        {busy ? text("busy") : (children ?? text("saved_card_pay"))}
      </button>
      <ErrorMessage error={error} />
    </div>
  )
}

"use client"
import type { HttpTypes } from "@medusajs/types"
import { useEffect, useRef, useState } from "react"
import { KIT_ERROR_CODES } from "../core/payment-error.js"
import { failureAddressCode, type PaymentReturn, returnFromPayment } from "../core/payment-return.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"

export interface PaymentReturnViewProps {
  /** The cart the shopper paid (the storefront kept its id). */
  cartId: string | null | undefined
  /** The `payment_intent` of the card SDK's return address, when there is one. */
  paymentIntentId?: string | null
  /**
   * The `payment_error` of the hosted page's failure address (`T0003`): it only picks the words when
   * the store found the payment not made without a reason of its own (`failureAddressCode`).
   */
  paymentError?: string | null
  /** Where "Back to checkout" leads, after a payment that was not made. */
  checkoutHref?: string
  /** Told what the return came to (forget the cart on an order, say). */
  onResult?: (result: PaymentReturn) => void
  /**
   * Called with the cart's id once its order is placed: the storefront forgets the cart and shows
   * the order (the official starter's `placeOrder` server action does both, for a completed cart too).
   */
  onOrder?: (cartId: string) => unknown
  className?: string
}

/**
 * The return page after the hosted page or a card confirmation: reads the
 * cart afresh and completes it (`returnFromPayment`), then says, in the
 * shopper's language, that the order is placed, that the payment is being
 * confirmed, or why it was not made. Announced politely as it changes.
 */
export function PaymentReturnView({ cartId, paymentIntentId, paymentError, checkoutHref, onResult, onOrder, className }: PaymentReturnViewProps) {
  const { sdk, headers, text } = useTwPayment()
  const [result, setResult] = useState<PaymentReturn | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const started = useRef(false)
  const report = useRef(onResult)
  report.current = onResult
  const placed = useRef(onOrder)
  placed.current = onOrder

  useEffect(() => {
    // Once per page: completing twice is harmless, but twice the wait (React's strict mode runs effects twice).
    if (started.current) {
      return
    }
    started.current = true
    returnFromPayment(sdk, cartId, { ...(paymentIntentId !== undefined ? { paymentIntentId } : {}), ...(headers ? { headers } : {}) })
      .then((found) => {
        setResult(found)
        report.current?.(found)
        if (found.kind === "order" && cartId) {
          // The order is placed whatever the storefront's next step does: its failure must not read as a failed payment.
          Promise.resolve(placed.current?.(cartId)).catch(() => undefined)
        }
      })
      .catch(setError)
  }, [sdk, headers, cartId, paymentIntentId])

  let message: string
  let state: string
  if (error !== undefined) {
    state = "error"
    message = ""
  } else if (!result) {
    state = "checking"
    message = text("return_checking")
  } else {
    state = result.kind
    switch (result.kind) {
      case "order":
        message = text("return_order_placed", { display_id: String((result.order as HttpTypes.StoreOrder).display_id ?? result.order.id) })
        break
      case "payment_pending":
        message = text("payment_pending")
        break
      case "declined": {
        // The store's read of a failed page often knows no reason; the failure address's code then says which decline.
        const generic = result.code === "payment_failed" || result.code === KIT_ERROR_CODES.paymentNotCompleted
        message = text(((generic ? failureAddressCode(paymentError) : undefined) ?? result.code) as Parameters<typeof text>[0])
        break
      }
      case "cart":
        message = text((failureAddressCode(paymentError) ?? "payment_not_completed") as Parameters<typeof text>[0])
        break
      case "no_payment":
        message = text("return_no_payment")
        break
      default:
        message = text("return_no_cart")
    }
  }
  const failed = state === "error" || state === "declined" || state === "cart" || state === "no_payment"

  return (
    <section className={className} data-testid="payment-return" data-state={state} aria-busy={state === "checking"}>
      {state === "error" ? <ErrorMessage error={error} /> : <p role={failed ? "alert" : "status"} data-testid="payment-return-message">{message}</p>}
      {failed && checkoutHref ? <a href={checkoutHref}>{text("return_to_checkout")}</a> : null}
    </section>
  )
}

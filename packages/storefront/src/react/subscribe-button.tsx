"use client"
import type { ReactNode } from "react"
import { type CartCompletion, completeCart } from "../core/cart-completion.js"
import { startSubscriptionCheckout, type SubscriptionCheckoutStart } from "../core/subscription-checkout.js"
import { assignLocation, useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import { invoiceFrom, type InvoiceSource } from "./invoice-source.js"

export interface SubscribeButtonProps {
  cartId: string
  /** The chosen plan (a `PlanPicker`'s); the button is disabled without one. */
  planId: string | undefined
  invoice?: InvoiceSource
  /** Subscribe with a saved card: no page, the cart is completed at once. */
  savedCardId?: string
  returnPath?: string
  providerId?: string
  /** Called with the started checkout instead of sending the page to the service's recurring page. */
  onStarted?: (start: SubscriptionCheckoutStart) => void
  /** With a saved card: what completing the cart came to. */
  onCompleted?: (completion: CartCompletion) => void
  className?: string
  children?: ReactNode
}

/** Starts the subscription checkout (`startSubscriptionCheckout`), then the service's page, or with a saved card the completion. */
export function SubscribeButton({ cartId, planId, invoice, savedCardId, returnPath, providerId, onStarted, onCompleted, className, children }: SubscribeButtonProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const { busy, error, run } = useBusyAction()

  const subscribe = () => {
    const checked = invoiceFrom(invoice)
    if (checked === false || !planId) {
      return
    }
    void run(async () => {
      const start = await startSubscriptionCheckout(
        sdk,
        cartId,
        {
          planId,
          ...(checked ? { invoice: checked } : {}),
          ...(savedCardId ? { savedCardId } : {}),
          ...(returnPath ? { returnPath } : {}),
          ...(providerId ? { providerId } : {}),
        },
        headers
      )
      if (onStarted) {
        onStarted(start)
      } else if (start.next === "redirect") {
        assignLocation(start.url)
      } else {
        onCompleted?.(await completeCart(sdk, cartId, { ...(headers ? { headers } : {}) }))
      }
    })
  }

  return (
    <div className={className}>
      <button type="button" className={classNames.button} onClick={subscribe} disabled={busy || !planId} aria-busy={busy} data-testid="subscribe-button">
        {busy ? text("busy") : (children ?? text("subscribe"))}
      </button>
      <ErrorMessage error={error} />
    </div>
  )
}

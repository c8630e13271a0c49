"use client"
import type { HttpTypes } from "@medusajs/types"
import type { ReactNode } from "react"
import { type HostedCheckoutStart, type HostedMethod, startHostedCheckout } from "../core/hosted-checkout.js"
import { assignLocation, useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import { invoiceFrom, type InvoiceSource } from "./invoice-source.js"

export interface HostedPayButtonProps {
  cart: HttpTypes.StoreCart
  /** Methods the page offers (the card when none). */
  methods?: HostedMethod[]
  invoice?: InvoiceSource
  /** A path on the storefront to come back to, instead of the store's configured one. */
  returnPath?: string
  providerId?: string
  /** Called with the started session instead of sending the page there (`window.location.assign(start.url)`). */
  onStarted?: (start: HostedCheckoutStart) => void
  className?: string
  /** The button's text; the catalogue's `pay_hosted` by default. */
  children?: ReactNode
}

/**
 * Starts a hosted-checkout session (`startHostedCheckout`) and sends the
 * shopper to the service's page; disabled while it does, its failure
 * announced in the shopper's language.
 */
export function HostedPayButton({ cart, methods, invoice, returnPath, providerId, onStarted = (start) => assignLocation(start.url), className, children }: HostedPayButtonProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const { busy, error, run } = useBusyAction()

  const pay = () => {
    const checked = invoiceFrom(invoice)
    if (checked === false) {
      return
    }
    void run(async () => {
      const start = await startHostedCheckout(
        sdk,
        cart,
        { ...(methods ? { methods } : {}), ...(checked ? { invoice: checked } : {}), ...(returnPath ? { returnPath } : {}), ...(providerId ? { providerId } : {}) },
        headers
      )
      onStarted(start)
    })
  }

  return (
    <div className={className}>
      <button type="button" className={classNames.button} onClick={pay} disabled={busy} aria-busy={busy} data-testid="hosted-pay-button">
        {busy ? text("busy") : (children ?? text("pay_hosted"))}
      </button>
      <ErrorMessage error={error} />
    </div>
  )
}

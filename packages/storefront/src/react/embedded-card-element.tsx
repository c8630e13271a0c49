"use client"
import type { HttpTypes } from "@medusajs/types"
import { useEffect, useId, useRef, useState } from "react"
import { startEmbeddedCard } from "../core/embedded-card.js"
import type { EmbeddedCardSession } from "../core/embedded-card-session.js"
import { TwPaymentError } from "../core/payment-error.js"
import { type TwPayClient, twPayClient, type TwPayElements, type TwPayPaymentElement, type TwPayTheme } from "../core/twpay-loader.js"
import { useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"

interface MountedCard {
  session: EmbeddedCardSession
  twpay: TwPayClient
  elements: TwPayElements
  element: TwPayPaymentElement
}

export interface EmbeddedCardElementProps {
  cart: HttpTypes.StoreCart
  /** A path on the storefront the SDK returns to (the store's configured card return page when absent). */
  returnPath?: string
  providerId?: string
  /** The card frame's colours, font and corners. */
  theme?: TwPayTheme
  /**
   * The payment went through without the SDK leaving the page (an answer lost
   * on the way, then read again): complete the cart, as the return page does.
   */
  onPaid?: (session: EmbeddedCardSession) => void
  className?: string
}

/** A code of the service's SDK (`CARD_DECLINED`) as the catalogue's (`card_declined`). */
const sdkFailure = (error: { code: string; message: string }) => new TwPaymentError(error.message, { code: error.code.toLowerCase() })

/**
 * The payment service's card form in the checkout: a payment session (a new
 * intent, `startEmbeddedCard`), the SDK loaded from the pinned address with
 * its integrity hash (`loadTwPay`), the card frame mounted in the shopper's
 * language, and "Pay now", enabled once the card details are complete. On
 * success the SDK sends the page to the return page; a failure is shown here,
 * and a failed intent is replaced by a new one.
 */
export function EmbeddedCardElement({ cart, returnPath, providerId, theme, onPaid, className }: EmbeddedCardElementProps) {
  const { sdk, headers, locale, text, classNames } = useTwPayment()
  const id = useId()
  const frame = useRef<HTMLDivElement>(null)
  const [card, setCard] = useState<MountedCard | undefined>(undefined)
  const [valid, setValid] = useState(false)
  const [loadError, setLoadError] = useState<unknown>(undefined)
  const [generation, setGeneration] = useState(0)
  const { busy, error, run } = useBusyAction()

  useEffect(() => {
    let current = true
    let mounted: TwPayPaymentElement | undefined
    setCard(undefined)
    setValid(false)
    setLoadError(undefined)
    void (async () => {
      const session = await startEmbeddedCard(sdk, cart, { ...(returnPath ? { returnPath } : {}), locale, ...(providerId ? { providerId } : {}) }, headers)
      const twpay = await twPayClient({ ...session, locale })
      if (!current || !frame.current) {
        return
      }
      const elements = twpay.elements({ clientSecret: session.clientSecret })
      const element = elements.create("payment", theme ? { theme } : undefined)
      element.on("loaderror", ({ error: failure }) => current && setLoadError(sdkFailure(failure)))
      element.on("change", ({ valid: complete }) => current && setValid(complete))
      element.mount(frame.current)
      mounted = element
      setCard({ session, twpay, elements, element })
    })().catch((failure: unknown) => current && setLoadError(failure instanceof TwPaymentError ? failure : new TwPaymentError(String(failure), { code: "card_form_load_failed" })))
    return () => {
      current = false
      mounted?.unmount()
    }
    // A new intent when the cart's total or the language changes, or after a failed one.
  }, [sdk, headers, cart.id, cart.total, locale, returnPath, providerId, generation])

  const pay = () =>
    void run(async () => {
      if (!card || !valid) {
        throw new TwPaymentError("Card details incomplete.", { code: "card_form_incomplete" })
      }
      const { error: failure } = await card.twpay.confirmPayment({ elements: card.elements, confirmParams: { returnUrl: card.session.returnUrl } })
      if (!failure) {
        onPaid?.(card.session)
        return
      }
      // What comes next depends on the intent, not on the error: paid after all, payable again, or failed for good.
      const read = await card.twpay.retrievePaymentIntent(card.session.clientSecret)
      const status = read.paymentIntent?.status
      if (status === "succeeded" || status === "processing") {
        onPaid?.(card.session)
        return
      }
      if (status !== "created" && status !== "requiresPaymentMethod") {
        setGeneration((n) => n + 1)
      }
      throw sdkFailure(failure)
    })

  return (
    <div className={className} data-testid="embedded-card" aria-busy={!card && !loadError}>
      <div role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`}>{text("card_form_label")}</span>
        <div ref={frame} data-testid="card-frame" />
      </div>
      {!card && !loadError ? <p role="status">{text("loading")}</p> : null}
      <ErrorMessage error={loadError} />
      <button type="button" className={classNames.button} onClick={pay} disabled={busy || !card || !valid} aria-busy={busy} data-testid="embedded-card-pay">
        {busy ? text("busy") : text("pay_now")}
      </button>
      <ErrorMessage error={error} />
    </div>
  )
}

import { showChallenge } from "./challenge-overlay"
import { type ConfirmAnswer, createPaymentElement, type PaymentElement, type Theme } from "./payment-element"
import { fail, type Failure, intentIdOf, type LastPaymentError, type NextAction, type PaymentIntentView, type RetrieveResult } from "./results"
import { type Locale, TEXTS } from "./texts"
import { SDK_VERSION } from "./version"

/**
 * The browser SDK, `twpay.js` 1.4.0, bundled into one classic script (src/embedded/sdk-bundler.ts)
 * that defines `window.TwPay`:
 *
 *   const twpay = TwPay("pk_...", { locale: "zh-TW" })
 *   const elements = twpay.elements({ clientSecret })
 *   const payment = elements.create("payment", { theme: { colorPrimary, fontFamily, borderRadius } })
 *   payment.mount("#card"); payment.on("change", (e) => e.valid)
 *   const { error } = await twpay.confirmPayment({ elements, confirmParams: { returnUrl } })
 *   const { paymentIntent } = await twpay.retrievePaymentIntent(clientSecret)
 *
 * Its bytes must never depend on the sandbox's address or port, because the pinned path is
 * published with a fixed `integrity` hash: the SDK finds the sandbox from its own `<script src>`.
 * Card data stays in the payment frame (served by the sandbox); a 3-D Secure challenge is shown
 * as an overlay iframe, after which the SDK re-reads the intent. Callers may be plain JavaScript,
 * so arguments are checked at run time as well.
 */

const KEY_PATTERN = /^pk_[0-9A-Za-z_]{24}$/

// Only while this script runs is it `document.currentScript`: the sandbox is wherever it came from.
const current = document.currentScript
const BASE = current instanceof HTMLScriptElement && current.src ? new URL(current.src, window.location.href).origin : ""

export interface TwPayOptions {
  locale?: Locale
}

export interface ElementsGroup {
  clientSecret: string
  _payment: PaymentElement | null
  create(type: "payment", options?: { theme?: Theme }): PaymentElement
}

export interface ConfirmPaymentParams {
  elements?: ElementsGroup
  confirmParams?: { returnUrl?: string }
}

export interface TwPayInstance {
  version: string
  elements(options: { clientSecret: string }): ElementsGroup
  /** Resolves only with an error: on success (or processing) the page goes to `returnUrl`. */
  confirmPayment(params?: ConfirmPaymentParams): Promise<Failure>
  retrievePaymentIntent(clientSecret: string): Promise<RetrieveResult>
}

/** The status endpoint's envelope (`GET /v1/payment-intents/{id}/status`). */
interface StatusEnvelope {
  data?: { id: string; status: string; amount: number; currency: string; lastPaymentError?: LastPaymentError | null }
  error?: { code: string; message: string }
}

// A function declaration, not an arrow: pages may call it with `new`, which still returns the instance.
function TwPay(publishableKey: string, options?: TwPayOptions): TwPayInstance {
  if (typeof publishableKey !== "string" || !KEY_PATTERN.test(publishableKey)) {
    throw new Error("TwPay: a publishable key (pk_ + 24 characters) is required")
  }
  if (!BASE) {
    throw new Error("TwPay: load twpay.js with a <script src> tag")
  }
  options = options || {}
  const locale: Locale = options.locale === "en" ? "en" : "zh-TW"
  const text = TEXTS[locale]
  let confirming = false

  function retrievePaymentIntent(clientSecret: string): Promise<RetrieveResult> {
    const id = intentIdOf(clientSecret)
    if (!id) {
      return Promise.resolve(fail("INVALID_REQUEST", "clientSecret is malformed"))
    }
    const url = `${BASE}/v1/payment-intents/${encodeURIComponent(id)}/status?clientSecret=${encodeURIComponent(clientSecret)}`
    return fetch(url, { method: "GET", mode: "cors", credentials: "omit", headers: { authorization: `Bearer ${publishableKey}` } })
      .then((res) =>
        res.json().then(
          (body: StatusEnvelope | null): RetrieveResult => {
            if (body && body.data) {
              const pi: PaymentIntentView = { id: body.data.id, status: body.data.status, amount: body.data.amount, currency: body.data.currency }
              if (body.data.lastPaymentError) {
                pi.lastPaymentError = body.data.lastPaymentError
              }
              return { paymentIntent: pi }
            }
            if (body && body.error) {
              return fail(body.error.code, body.error.message)
            }
            return fail("UNEXPECTED_RESPONSE", `HTTP ${res.status}`)
          },
          () => fail("UNEXPECTED_RESPONSE", `HTTP ${res.status}`)
        )
      )
      .catch(() => fail("NETWORK_ERROR", text.network))
  }

  function redirect(returnUrl: string, clientSecret: string, paymentIntent: PaymentIntentView): Promise<never> {
    const target = new URL(returnUrl, window.location.href)
    target.searchParams.set("payment_intent", paymentIntent.id)
    target.searchParams.set("payment_intent_client_secret", clientSecret)
    target.searchParams.set("redirect_status", paymentIntent.status === "succeeded" ? "succeeded" : "processing")
    window.location.assign(target.toString())
    // The page is leaving: the promise stays pending, as nothing else will happen here.
    return new Promise<never>(() => {})
  }

  function settle(returnUrl: string, clientSecret: string, paymentIntent: PaymentIntentView, nextAction: NextAction | null | undefined): Promise<Failure> {
    if (paymentIntent.status === "succeeded" || paymentIntent.status === "processing") {
      return redirect(returnUrl, clientSecret, paymentIntent)
    }
    if (paymentIntent.status === "requiresAction" && nextAction && nextAction.url) {
      return showChallenge(BASE, nextAction.url, locale, text).then(() =>
        retrievePaymentIntent(clientSecret).then((read) => {
          if ("error" in read) {
            return read
          }
          return settle(returnUrl, clientSecret, read.paymentIntent, null)
        })
      )
    }
    const err = paymentIntent.lastPaymentError
    return Promise.resolve(fail(err ? err.code : "INVALID_REQUEST", err ? err.message || err.code : `payment intent is ${paymentIntent.status}`))
  }

  function confirmPayment(params?: ConfirmPaymentParams): Promise<Failure> {
    params = params || {}
    const group = params.elements
    const returnUrl = params.confirmParams && params.confirmParams.returnUrl
    const payment = group && group._payment
    if (!group || !payment || !payment._isMounted()) {
      return Promise.resolve(fail("INVALID_REQUEST", text.notMounted))
    }
    if (typeof returnUrl !== "string" || !returnUrl) {
      return Promise.resolve(fail("INVALID_REQUEST", "confirmParams.returnUrl is required"))
    }
    if (confirming) {
      return Promise.resolve(fail("INVALID_REQUEST", text.busy))
    }
    confirming = true
    const absoluteReturnUrl = new URL(returnUrl, window.location.href).toString()
    return payment
      ._request({ type: "confirm", returnUrl: absoluteReturnUrl })
      .then((result: ConfirmAnswer) => {
        if ("error" in result && result.error) {
          return fail(result.error.code, result.error.message)
        }
        const { paymentIntent } = result as Exclude<ConfirmAnswer, Failure>
        return settle(absoluteReturnUrl, group.clientSecret, paymentIntent, paymentIntent.nextAction)
      })
      .then(
        (outcome) => {
          confirming = false
          return outcome
        },
        (err: unknown) => {
          confirming = false
          const message = (err as { message?: unknown } | null | undefined)?.message
          return fail("INTERNAL_ERROR", String(message ? message : err))
        }
      )
  }

  function elements(groupOptions: { clientSecret: string }): ElementsGroup {
    const clientSecret = groupOptions && groupOptions.clientSecret
    if (!intentIdOf(clientSecret)) {
      throw new Error("TwPay: elements({ clientSecret }) needs the payment intent's client secret")
    }
    const group: ElementsGroup = {
      clientSecret,
      _payment: null,
      create(type, elementOptions) {
        if (type !== "payment") {
          throw new Error(`TwPay: unknown element type ${String(type)} (only "payment")`)
        }
        if (group._payment) {
          throw new Error("TwPay: this elements group already has a payment element")
        }
        group._payment = createPaymentElement(BASE, publishableKey, locale, clientSecret, (elementOptions && elementOptions.theme) || {})
        return group._payment
      },
    }
    return group
  }

  return {
    version: SDK_VERSION,
    elements,
    confirmPayment,
    retrievePaymentIntent,
  }
}

declare global {
  interface Window {
    TwPay: typeof TwPay
  }
}

window.TwPay = TwPay

/**
 * The payment service's browser SDK (`twpay.js`), as far as a storefront
 * uses it: typed here because the SDK ships no types, loaded from the address
 * and with the integrity hash the embedded-card provider gives in the session
 * data (`sdkUrl`, `sdkIntegrity`), so the browser runs only the pinned version.
 */

export interface TwPayError {
  code: string
  message: string
}

/** The intent as the SDK reads it with the client secret (no amounts to trust beyond this). */
export interface TwPayIntent {
  id: string
  status: "created" | "requiresPaymentMethod" | "requiresAction" | "processing" | "succeeded" | "failed" | "canceled"
  amount: number
  currency: string
  lastPaymentError?: TwPayError
}

export interface TwPayTheme {
  colorPrimary?: string
  fontFamily?: string
  borderRadius?: string
}

export interface TwPayChangeEvent {
  elementType: "payment"
  valid: boolean
  empty: boolean
  brand: string | null
}

export interface TwPayPaymentElement {
  mount(target: string | HTMLElement): TwPayPaymentElement
  unmount(): TwPayPaymentElement
  on(event: "change", handler: (event: TwPayChangeEvent) => void): TwPayPaymentElement
  on(event: "ready", handler: () => void): TwPayPaymentElement
  on(event: "loaderror", handler: (event: { error: TwPayError }) => void): TwPayPaymentElement
}

export interface TwPayElements {
  create(type: "payment", options?: { theme?: TwPayTheme }): TwPayPaymentElement
}

export interface TwPayClient {
  elements(options: { clientSecret: string }): TwPayElements
  /** Resolves `{ error }` on failure; on success (and `processing`) the SDK sends the whole page to `returnUrl` and never resolves. */
  confirmPayment(params: { elements: TwPayElements; confirmParams: { returnUrl: string } }): Promise<{ error?: TwPayError }>
  retrievePaymentIntent(clientSecret: string): Promise<{ paymentIntent: TwPayIntent; error?: undefined } | { error: TwPayError; paymentIntent?: undefined }>
}

export type TwPayFactory = (publishableKey: string, options?: { locale?: "en" | "zh-TW" }) => TwPayClient

declare global {
  interface Window {
    TwPay?: TwPayFactory
  }
}

/** Where the SDK comes from: `sdkUrl` and `sdkIntegrity` of the provider's session data (an `EmbeddedCardSession` is one). */
export interface TwPaySource {
  sdkUrl: string
  sdkIntegrity?: string
}

const loads = new Map<string, Promise<TwPayFactory>>()

/**
 * Adds the SDK's `<script>` once per page. With an integrity hash the browser
 * refuses a script whose bytes differ from the pinned version; SRI on a
 * cross-origin script needs a CORS request, hence `crossorigin="anonymous"`.
 * A failed load is forgotten, so a later call tries again (a network blip).
 */
export function loadTwPay(source: TwPaySource): Promise<TwPayFactory> {
  let load = loads.get(source.sdkUrl)
  if (!load) {
    load = new Promise<TwPayFactory>((resolve, reject) => {
      const script = document.createElement("script")
      script.src = source.sdkUrl
      if (source.sdkIntegrity) {
        script.integrity = source.sdkIntegrity
        script.crossOrigin = "anonymous"
      }
      script.addEventListener("load", () => (window.TwPay ? resolve(window.TwPay) : reject(new Error("The card payment script loaded but did not start."))))
      script.addEventListener("error", () => reject(new Error("The card payment form could not be loaded. Check your connection and try again.")))
      document.head.append(script)
    })
    load.catch(() => loads.delete(source.sdkUrl))
    loads.set(source.sdkUrl, load)
  }
  return load
}

/** The SDK's client for a session, its card form in `locale` (the SDK's own default is Traditional Chinese). */
export async function twPayClient(source: TwPaySource & { publishableKey: string; locale?: "en" | "zh-TW" }): Promise<TwPayClient> {
  const TwPay = await loadTwPay(source)
  return TwPay(source.publishableKey, source.locale ? { locale: source.locale } : undefined)
}

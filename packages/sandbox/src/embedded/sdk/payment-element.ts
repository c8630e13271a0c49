import { fail, type Failure, type NextAction, type PaymentIntentView } from "./results"
import type { Locale } from "./texts"
import { SDK_VERSION } from "./version"

const FRAME_PATH = `/sdk/v${SDK_VERSION}/frame.html`

/** Passed to the payment frame, which styles its inputs with it. */
export interface Theme {
  colorPrimary?: string
  fontFamily?: string
  borderRadius?: string
}

/** The element's events and what their handlers receive. */
export interface ElementEvents {
  ready: { elementType: "payment" }
  change: { elementType: "payment"; valid: boolean; empty: boolean; brand: string | null }
  loaderror: { elementType: "payment"; error: unknown }
}

type ElementEventName = keyof ElementEvents
type ElementHandler<K extends ElementEventName = ElementEventName> = (event: ElementEvents[K]) => void

/** What the frame answers a confirmation with: the intent (with its next action) or an error. */
export type ConfirmAnswer = { paymentIntent: PaymentIntentView & { nextAction?: NextAction | null } } | Failure

export interface PaymentElement {
  mount(target: string | Element): PaymentElement
  unmount(): PaymentElement
  on<K extends ElementEventName>(name: K, handler: ElementHandler<K>): PaymentElement
  off<K extends ElementEventName>(name: K, handler: ElementHandler<K>): PaymentElement
  /** For `confirmPayment` only. */
  _isMounted(): boolean
  /** For `confirmPayment` only: asks the frame to tokenize and confirm. */
  _request(message: { type: "confirm"; returnUrl: string }): Promise<ConfirmAnswer>
}

/**
 * What the frame posts to the page. Only messages from the sandbox's own frame get here (window and
 * origin checked); the scalar fields are still checked before use, `result` is the frame's answer as sent.
 */
interface FrameMessage {
  source?: unknown
  type?: unknown
  valid?: unknown
  empty?: unknown
  brand?: unknown
  height?: unknown
  error?: unknown
  id?: unknown
  result?: ConfirmAnswer
}

interface SdkMessage {
  source?: "twpay-sdk"
  type: string
  id?: number
  [field: string]: unknown
}

/**
 * The card form: an iframe served by the sandbox (`frame.html`), so card data never touches the
 * page. The page and the frame talk only by postMessage, each checking the other's window and
 * origin; messages sent before the frame says "ready" wait in a queue.
 */
export function createPaymentElement(base: string, publishableKey: string, locale: Locale, clientSecret: string, theme: Theme): PaymentElement {
  const listeners = new Map<string, ElementHandler[]>()
  let iframe: HTMLIFrameElement | null = null
  let ready = false
  let queue: SdkMessage[] = []
  const pending = new Map<unknown, (answer: ConfirmAnswer) => void>()
  let seq = 0

  function emit<K extends ElementEventName>(name: K, event: ElementEvents[K]): void {
    for (const handler of (listeners.get(name) ?? []).slice()) {
      try {
        handler(event)
      } catch (err) {
        // A merchant's handler must not break the SDK: report it as an uncaught error, later.
        setTimeout(() => {
          throw err
        })
      }
    }
  }

  function send(message: SdkMessage): void {
    if (!iframe || !iframe.contentWindow) {
      return
    }
    message.source = "twpay-sdk"
    if (ready) {
      iframe.contentWindow.postMessage(message, base)
    } else {
      queue.push(message)
    }
  }

  function onMessage(event: MessageEvent): void {
    if (!iframe || event.source !== iframe.contentWindow || event.origin !== base) {
      return
    }
    const msg: unknown = event.data
    if (!msg || typeof msg !== "object" || (msg as FrameMessage).source !== "twpay-frame") {
      return
    }
    const m = msg as FrameMessage
    if (m.type === "ready") {
      ready = true
      const frameWindow = iframe.contentWindow
      for (const queued of queue.splice(0)) {
        frameWindow?.postMessage(queued, base)
      }
      emit("ready", { elementType: "payment" })
    } else if (m.type === "change") {
      const brand = (m.brand as string | null | undefined) || null
      emit("change", { elementType: "payment", valid: m.valid === true, empty: m.empty === true, brand })
    } else if (m.type === "resize" && typeof m.height === "number") {
      iframe.style.height = `${Math.max(80, Math.min(600, m.height))}px`
    } else if (m.type === "loaderror") {
      emit("loaderror", { elementType: "payment", error: m.error })
    } else if (m.type === "result" && pending.has(m.id)) {
      const resolve = pending.get(m.id)
      pending.delete(m.id)
      resolve?.(m.result || fail("INTERNAL_ERROR", "empty result"))
    }
  }

  const element: PaymentElement = {
    mount(target) {
      const node = typeof target === "string" ? document.querySelector(target) : target
      if (!node || typeof node.appendChild !== "function") {
        throw new Error(`TwPay: mount target not found: ${String(target)}`)
      }
      if (iframe) {
        throw new Error("TwPay: the payment element is already mounted")
      }
      const hash = new URLSearchParams()
      hash.set("clientSecret", clientSecret)
      hash.set("origin", window.location.origin)
      hash.set("locale", locale)
      hash.set("theme", JSON.stringify(theme || {}))
      iframe = document.createElement("iframe")
      iframe.name = "twpay-payment-frame"
      iframe.title = locale === "en" ? "Secure card payment form" : "安全的信用卡付款表單"
      iframe.setAttribute("scrolling", "no")
      iframe.style.cssText = "border:0;width:100%;height:180px;display:block;overflow:hidden;background:transparent"
      iframe.src = `${base}${FRAME_PATH}?pk=${encodeURIComponent(publishableKey)}#${hash.toString()}`
      ready = false
      window.addEventListener("message", onMessage)
      node.appendChild(iframe)
      return element
    },
    unmount() {
      window.removeEventListener("message", onMessage)
      if (iframe && iframe.parentNode) {
        iframe.parentNode.removeChild(iframe)
      }
      iframe = null
      ready = false
      queue = []
      for (const [id, resolve] of pending) {
        resolve(fail("INVALID_REQUEST", "the payment element was unmounted"))
        pending.delete(id)
      }
      return element
    },
    on(name, handler) {
      const handlers = listeners.get(name) ?? []
      // Stored by name: emit() hands each handler the event of that same name.
      handlers.push(handler as ElementHandler)
      listeners.set(name, handlers)
      return element
    },
    off(name, handler) {
      listeners.set(name, (listeners.get(name) ?? []).filter((h) => h !== (handler as ElementHandler)))
      return element
    },
    _isMounted() {
      return iframe !== null
    },
    _request(message) {
      return new Promise((resolve) => {
        const id = ++seq
        pending.set(id, resolve)
        send({ ...message, id })
      })
    },
  }
  return element
}

import { EMBEDDED_CARD_PROVIDER_ID, type EmbeddedCardSession, startEmbeddedCard } from "medusa-payment-tw-storefront"
import { el } from "../element"
import { sdk } from "../medusa"
import { CARD_ERROR_PARAM, cardFailureMessage, cardFailureMessageFor } from "./card-errors"
import type { PaymentCheckout, PaymentOption, PaymentStart } from "./payment-option"
import { type TwPayClient, twPayClient, type TwPayElements, type TwPayError, type TwPayPaymentElement, type TwPayTheme } from "./twpay"

/** The card form on the page: the SDK's element for one payment intent. */
interface MountedCard {
  session: EmbeddedCardSession
  twpay: TwPayClient
  elements: TwPayElements
  element: TwPayPaymentElement
  /** The last `change` event's word on the card details. */
  valid: boolean
}

/**
 * The card form's colours, font and corners taken from the storefront's own
 * stylesheet, so the frame looks like the rest of the checkout. The frame
 * ignores a value it does not accept, so a style change cannot break it.
 */
function cardTheme(): TwPayTheme {
  const root = getComputedStyle(document.documentElement)
  return {
    colorPrimary: root.getPropertyValue("--accent").trim() || undefined,
    fontFamily: getComputedStyle(document.body).fontFamily || undefined,
    borderRadius: root.getPropertyValue("--field-radius").trim() || undefined,
  }
}

/**
 * One card form in the option's fields. It creates the payment session (the
 * provider makes a payment intent for it), loads the SDK and mounts the card
 * frame; card details stay in the frame, served by the payment service.
 */
class CardFields {
  #card: MountedCard | undefined
  /** Counts mounts, so that a slow mount overtaken by a newer one gives way. */
  #generation = 0
  readonly #frame = el("div", { class: "card-frame", id: "card-element", "data-testid": "card-element" })
  readonly #status = el("p", { class: "status", id: "card-status", role: "status", "aria-live": "polite" })

  constructor(
    container: HTMLElement,
    private readonly checkout: PaymentCheckout
  ) {
    container.replaceChildren(el("div", { class: "card-form", "data-testid": "card-form" }, this.#frame, this.#status))
  }

  get card(): MountedCard | undefined {
    return this.#card
  }

  #say(message: string | undefined, isError = false) {
    this.#status.textContent = message ?? ""
    this.#status.hidden = !message
    this.#status.classList.toggle("error", isError)
  }

  /** Takes the card form off the page (the payment step is drawn again); a mount still under way gives way. */
  close() {
    this.#generation++
    this.#card?.element.unmount()
    this.#card = undefined
  }

  /** A new payment session (and so a new intent), and its card form in place of any earlier one. */
  async mount(): Promise<void> {
    this.close()
    const generation = this.#generation
    this.checkout.setPayable(false)
    this.#say("Loading the card form…")
    try {
      const session = await startEmbeddedCard(sdk, this.checkout.cart)
      const twpay = await twPayClient(session)
      if (generation !== this.#generation) {
        return
      }
      const elements = twpay.elements({ clientSecret: session.clientSecret })
      const element = elements.create("payment", { theme: cardTheme() })
      const card: MountedCard = { session, twpay, elements, element, valid: false }
      // The frame says "ready" even after a load error (it reports that first), which must stay shown.
      let loadError: string | undefined
      element.on("loaderror", ({ error }) => {
        loadError = `The card form could not be loaded: ${error.message} (${error.code})`
        this.#say(loadError, true)
      })
      element.on("ready", () => this.#say(loadError, Boolean(loadError)))
      element.on("change", ({ valid }) => {
        card.valid = valid
        if (this.#card === card) {
          this.checkout.setPayable(valid)
        }
      })
      element.mount(this.#frame)
      this.#card = card
    } catch (error) {
      if (generation === this.#generation) {
        this.#say(error instanceof Error ? error.message : String(error), true)
      }
      throw error
    }
  }

  /**
   * After a failed confirmation the intent is read again, because what comes
   * next depends on its state, not on the error: after a cancelled or
   * timed-out 3-D Secure check the same intent can be confirmed again, after a
   * decline it has failed and only a new one can be paid. An intent that was
   * paid after all (an answer lost on the way) is completed, never replaced.
   */
  async recover(card: MountedCard, error: TwPayError): Promise<PaymentStart> {
    const read = await card.twpay.retrievePaymentIntent(card.session.clientSecret)
    const status = read.paymentIntent?.status
    if (status === "succeeded" || status === "processing") {
      return { next: "complete_cart" }
    }
    if (status === "created" || status === "requiresPaymentMethod") {
      this.checkout.setPayable(card.valid)
      throw new Error(cardFailureMessage(error, "You can try again with the same card, or enter another one."))
    }
    // Should the new form fail to load, it says so itself; the shopper still learns why the payment failed.
    await this.mount().catch(() => undefined)
    throw new Error(cardFailureMessage(error, "Enter your card details again, or use another card."))
  }
}

let fields: CardFields | undefined

/**
 * "Pay by card": the payment service's card form, embedded in the checkout.
 * Confirming sends the shopper to /checkout/card/return when the payment went
 * through; a failure is shown here, and the shopper can pay again at once.
 */
export const embeddedCardOption: PaymentOption = {
  id: "embedded-card",
  providerId: EMBEDDED_CARD_PROVIDER_ID,
  label: "Pay by card",
  hint: "Visa, Mastercard, JCB. Your card details go straight to the payment service, never to this shop.",

  renderFields(container, checkout) {
    fields?.close()
    fields = new CardFields(container, checkout)
    // The error is shown in the form; the checkout has nothing to add.
    fields.mount().catch((error: unknown) => console.error(error))
  },

  async start(): Promise<PaymentStart> {
    const card = fields?.card
    if (!card?.valid) {
      throw new Error("Enter your card number, expiry date and security code first.")
    }
    const { error } = await card.twpay.confirmPayment({ elements: card.elements, confirmParams: { returnUrl: card.session.returnUrl } })
    if (error) {
      return fields!.recover(card, error)
    }
    // The SDK leaves the page when the payment goes through; were it ever to resolve instead, the payment is made here.
    return { next: "complete_cart" }
  },

  returnedFailure(query) {
    if (!query.has(CARD_ERROR_PARAM)) {
      return undefined
    }
    return cardFailureMessageFor(query.get(CARD_ERROR_PARAM), "Enter your card details to pay again, or choose another way to pay.")
  },
}

import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { embeddedCardFailureOf } from "./embedded-card-session.js"
import { hostedSessionOf } from "./hosted-session.js"
import { KIT_ERROR_CODES } from "./payment-error.js"
import { isEmbeddedCardProvider, isHostedCheckoutProvider } from "./provider-ids.js"
import { answerOfError, errorFields, type StoreAnswer, storeCall, storeError } from "./store-answer.js"
import type { StoreSession } from "./store-session.js"

/**
 * What completing a cart came to. The official starter keeps only the order;
 * here every answer the store gives is its own case:
 * - `order`: the order is placed (paid, or awaiting a convenience-store or bank payment);
 * - `cart`: core's 200 answer with the cart and why its payment needs more;
 * - `payment_pending`: the plugin's 409, a saved card's charge the service has
 *   not confirmed yet; the order is placed once it does, nothing to pay again;
 * - `declined`: a 400 with a code, the payment refused; the cart can be paid again.
 */
export type CartCompletion =
  | { kind: "order"; order: HttpTypes.StoreOrder }
  | { kind: "cart"; cart: HttpTypes.StoreCart; error: { message: string; name?: string; type?: string } }
  | { kind: "payment_pending"; paymentSessionId: string; message: string }
  | { kind: "declined"; code: string; message: string }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** What an answer of `POST /store/carts/:id/complete` means; undefined for an answer that is none of the cases (an error). */
export function completionOf(answer: StoreAnswer): CartCompletion | undefined {
  const body = isRecord(answer.body) ? answer.body : {}
  if (answer.status === 200 && body.type === "order" && isRecord(body.order)) {
    return { kind: "order", order: body.order as unknown as HttpTypes.StoreOrder }
  }
  if (answer.status === 200 && body.type === "cart" && isRecord(body.cart)) {
    const error = isRecord(body.error) ? body.error : {}
    return {
      kind: "cart",
      cart: body.cart as unknown as HttpTypes.StoreCart,
      error: {
        message: typeof error.message === "string" ? error.message : "The payment needs more before the order can be placed.",
        ...(typeof error.name === "string" ? { name: error.name } : {}),
        ...(typeof error.type === "string" ? { type: error.type } : {}),
      },
    }
  }
  const { code, message } = errorFields(body)
  if (answer.status === 409 && (body.type === "payment_pending" || code === "payment_pending") && typeof body.payment_session_id === "string") {
    return { kind: "payment_pending", paymentSessionId: body.payment_session_id, message: message ?? "The payment service has not confirmed the payment yet." }
  }
  if (answer.status === 400 && code) {
    return { kind: "declined", code, message: message ?? "The payment was declined." }
  }
  return undefined
}

/** Session statuses the provider's read leaves on a payment it found not made. */
const NOT_PAID = new Set(["requires_more", "error", "canceled"])


/**
 * A refusal whose answer lost its body on the way (the js-sdk keeps only the
 * status and message), told apart by a fresh read of the cart's sessions:
 * a saved card's charge still open is the plugin's `payment_pending`; a 400
 * on a session the provider found unpaid, or on a saved card's charge, is a
 * decline. Undefined when the read says neither.
 */
export function refusalOf(answer: StoreAnswer, sessions: readonly StoreSession[]): CartCompletion | undefined {
  const message = errorFields(answer.body).message ?? "The payment was not made."
  const hosted = hostedSessionOf(sessions)
  const openSavedCard = hosted?.savedCard && hosted.status !== "authorized" && hosted.status !== "captured"
  if (answer.status === 409) {
    return openSavedCard ? { kind: "payment_pending", paymentSessionId: hosted.id, message } : undefined
  }
  if (answer.status !== 400) {
    return undefined
  }
  // The shopper code the provider's read recorded, when it found why.
  const recorded = embeddedCardFailureOf(sessions)?.errorCode ?? hosted?.errorCode
  if (recorded) {
    return { kind: "declined", code: recorded, message }
  }
  if (openSavedCard) {
    return { kind: "declined", code: KIT_ERROR_CODES.cardDeclined, message }
  }
  const unpaid = sessions.some((s) => (isHostedCheckoutProvider(s.provider_id) || isEmbeddedCardProvider(s.provider_id)) && NOT_PAID.has(s.status))
  return unpaid ? { kind: "declined", code: KIT_ERROR_CODES.paymentNotCompleted, message } : undefined
}

export interface CompleteCartOptions {
  /** Calls at most, when the store is busy completing the same cart (the service's notification) or did not answer. */
  attempts?: number
  retryDelayMs?: number
  headers?: ClientHeaders
}

const SESSION_FIELDS = "id,completed_at,*payment_collection,*payment_collection.payment_sessions"

async function sessionsOf(sdk: Medusa, cartId: string, headers?: ClientHeaders): Promise<StoreSession[]> {
  const { cart } = await storeCall(() => sdk.store.cart.retrieve(cartId, { fields: SESSION_FIELDS }, headers))
  return cart.payment_collection?.payment_sessions ?? []
}

/**
 * Completes the cart and says what came of it. The payment service's
 * notification can be completing the same cart at this moment (a 409 from
 * core) and a completed cart answers with its order, so a conflict or no
 * answer is tried again. Any other refusal is thrown as a `TwPaymentError`
 * with the store's code and message.
 */
export async function completeCart(sdk: Medusa, cartId: string, options: CompleteCartOptions = {}): Promise<CartCompletion> {
  const { attempts = 4, retryDelayMs = 1500, headers } = options
  for (let attempt = 1; ; attempt++) {
    let answer: StoreAnswer | undefined
    let failure: unknown
    try {
      answer = { status: 200, body: await sdk.store.cart.complete(cartId, {}, headers) }
    } catch (error) {
      answer = answerOfError(error)
      failure = error
    }
    if (answer) {
      const completion = completionOf(answer) ?? (answer.status === 400 || answer.status === 409 ? refusalOf(answer, await sessionsOf(sdk, cartId, headers)) : undefined)
      if (completion) {
        return completion
      }
      failure = storeError(answer)
    }
    const retry = !answer || answer.status === 409 || answer.status >= 500
    if (!retry || attempt >= attempts) {
      throw failure
    }
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs))
  }
}

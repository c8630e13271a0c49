import type { MedusaContainer, PaymentCustomerDTO, PaymentSessionDTO } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { TokenChargeBody, TokenSubscriptionBody } from "../../../lib/hosted"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../../modules/tw-subscription"
import { toTwd } from "../../../providers/core/money"
import { SHOPPER_ERROR } from "../../../providers/core/shopper-error-codes"
import {
  type SessionSavedCard,
  sessionSavedCard,
  type SessionSubscription,
  sessionSubscription,
  tokenChargeBody,
  tokenSubscriptionBody,
} from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { loadSession, providerKeyOf } from "../../../saved-cards/charge-rows"

export interface ChargeTwSavedCardInput {
  /** The cart being completed (its lock is taken, as core's completion takes it); null off session. */
  cart_id: string | null
  payment_session_id: string
  /** The cart's customer: a saved card pays only for its own customer's cart. Off session, the session's cart is looked up here. */
  cart_customer_id: string | null
  /**
   * Run by the hosted provider's authorization of an off-session session
   * (Medusa's recipe: `payment_method` + `off_session`), not by a cart's
   * completion: no cart lock, and the session's payment collection may have
   * no cart at all (a renewal's own collection); when it has one, that cart's
   * customer must still be the card's.
   */
  off_session?: boolean
}

/** The request the one send makes, without the token (added inside the send, at the last moment). */
export type ChargeRequest = { kind: "charge"; body: Omit<TokenChargeBody, "token"> } | { kind: "subscription"; body: Omit<TokenSubscriptionBody, "token"> }

export type PreparedCharge =
  /** The session already holds the paid charge (an earlier completion): nothing to do. */
  | { kind: "paid"; now: number }
  | {
      kind: "charge"
      now: number
      session_id: string
      provider_key: string
      card: SessionSavedCard
      customer_id: string
      amount: number
      subscription: { id: string; first_charge_later: boolean; start_date: string | null } | null
      request: ChargeRequest
    }

function customerOf(session: PaymentSessionDTO): PaymentCustomerDTO | undefined {
  const customer = (session.context as { customer?: PaymentCustomerDTO } | null | undefined)?.customer
  return customer?.id ? customer : undefined
}

/** The cart a session's payment collection pays for, with its customer; null for a collection without a cart. */
async function cartOfSession(container: MedusaContainer, collectionId: string): Promise<{ customer_id: string | null } | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: ["id", "cart.id", "cart.customer_id"], filters: { id: collectionId } })
  const cart = (data[0] as { cart?: { id?: string; customer_id?: string | null } | null } | undefined)?.cart
  return cart?.id ? { customer_id: cart.customer_id ?? null } : null
}

/** The subscription's terms as agreed at its checkout (the row the session was opened for). */
async function subscriptionTerms(container: MedusaContainer, subscription: SessionSubscription, sessionId: string) {
  const row = await container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE).retrieveTwSubscription(subscription.id)
  if (row.payment_session_id !== sessionId || row.status !== "pending") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This subscription checkout was replaced or has ended: start the subscription checkout again.", SHOPPER_ERROR.subscription_checkout_expired)
  }
  return { interval_months: row.interval_months, periods: row.periods_total, start_date: row.start_date, customer_id: row.customer_id }
}

/**
 * Reads and checks everything before anything is written: the session is a
 * saved-card session of a logged-in customer, of this cart's customer, for
 * the amount the card was chosen at; a subscription's checkout is still this
 * session's. The request is built here too, so a body the store cannot send
 * (an e-invoice without a buyer's name) is refused with nothing started.
 */
export const prepareSavedCardChargeStep = createStep("prepare-tw-saved-card-charge", async (input: ChargeTwSavedCardInput, { container }) => {
  const now = Date.now()
  const { payment_session_id: sessionId } = input
  const session = await loadSession(container, sessionId)
  const card = sessionSavedCard(session?.data)
  if (!session || !card) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} is not a saved-card session.`, SHOPPER_ERROR.payment_session_invalid)
  }
  if (session.data.transactionId) {
    return new StepResponse<PreparedCharge>({ kind: "paid", now })
  }
  const customer = customerOf(session)
  if (!customer) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Paying with a saved card needs a logged-in customer.", SHOPPER_ERROR.saved_card_login_required)
  }
  const providerKey = providerKeyOf(session.provider_id)
  const api = hostedApi(container, providerKey)
  const amount = toTwd(session.amount, session.currency_code)
  if (amount !== session.data.amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart's amount changed after the saved card was chosen: choose it again.", SHOPPER_ERROR.saved_card_cart_changed)
  }
  const subscription = sessionSubscription(session.data)
  const terms = subscription ? await subscriptionTerms(container, subscription, sessionId) : undefined
  if (input.off_session && session.data.offSession !== true) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment session ${sessionId} is charged at its cart's completion, not off session.`)
  }
  // Off session, only a collection that pays for a cart has a cart's customer to match.
  const cart = input.off_session ? await cartOfSession(container, session.payment_collection_id) : { customer_id: input.cart_customer_id }
  if (cart && cart.customer_id !== customer.id) {
    // The session's card is its customer's (checked when it was made); the cart is someone else's: nothing is started.
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The saved card chosen for this cart is not of the cart's customer. Nothing was charged: choose a payment method again.", SHOPPER_ERROR.saved_card_not_yours)
  }
  const common = { options: api.options, productLine: (rest: number) => api.productLine(rest), sessionId, amount, data: session.data, customer }
  const request: ChargeRequest = terms
    ? { kind: "subscription", body: tokenSubscriptionBody(common, terms, !!subscription?.firstChargeLater) }
    : { kind: "charge", body: tokenChargeBody(common) }
  return new StepResponse<PreparedCharge>({
    kind: "charge",
    now,
    session_id: sessionId,
    provider_key: providerKey,
    card,
    customer_id: customer.id,
    amount,
    subscription: subscription ? { id: subscription.id, first_charge_later: !!subscription.firstChargeLater, start_date: subscription.startDate } : null,
    request,
  })
})

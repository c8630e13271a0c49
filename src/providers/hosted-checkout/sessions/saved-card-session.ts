import { container as appContainer } from "@medusajs/framework"
import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { MedusaWorkflow } from "@medusajs/framework/workflows-sdk"
import { compareCalendarDates, formatCalendarDate, parseCalendarDate, taipeiDate } from "../../../lib/hosted"
import { SHOPPER_ERROR } from "../../core/shopper-error-codes"
import { savedCardFacts } from "../account-holder"
import { SAVED_CARD_CHARGE_WORKFLOW_ID, type SavedCardChargeOutcome, type SavedCardRequest, type SessionSavedCard } from "../saved-card-charge-data"
import { freshSessionData, type StorefrontData } from "../hosted-checkout-session-data"
import type { SessionSubscription, SubscriptionTerms } from "../subscription-terms"
import { cartChangedError } from "./subscription-session"

/**
 * A session on a saved card (docs/saved-cards.md): nothing is charged until
 * the cart's completion, whose middleware charges the card in the app
 * (`saved-card-charge-data.ts` has what that charge sends), or, for an
 * off-session session (Medusa's recipe: a subscription tool's renewal, no
 * completion), until its authorization, which runs the same charge
 * (`chargeOffSession`). Once charged, the session has a transaction and is
 * authorized, cancelled and deleted as a page's is.
 */

/**
 * The data of a saved-card session before its charge: no page and no
 * transaction yet (the charge writes `transactionId`, the read's facts and a
 * sealed read, so the completion's authorization does not read again).
 */
export function initiateSavedCard(
  amount: number,
  input: StorefrontData,
  request: SavedCardRequest,
  terms: SubscriptionTerms | undefined,
  context: InitiatePaymentInput["context"]
): InitiatePaymentOutput {
  const card = savedCardOfCustomer(request.id, context)
  if (terms && request.offSession) {
    // A subscription's first charge is the plugin's own checkout, completed by the storefront.
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Invalid payment session data (off_session: a subscription checkout is completed with the cart, not off session)", SHOPPER_ERROR.payment_data_invalid)
  }
  const subscription = terms ? savedCardSubscription(terms, amount, context!.customer!.id) : undefined
  const data = {
    ...freshSessionData,
    session_id: input.session_id,
    savedCard: card,
    amount,
    ...(request.offSession ? { offSession: true } : {}),
    ...(subscription ? { subscription } : {}),
  }
  return { id: input.session_id, status: PaymentSessionStatus.PENDING, data }
}

/** Authorizing before the charge would place an unpaid order: the completion route charges first. */
export function refuseUncharged(): never {
  throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The saved card was not charged: complete the cart with POST /store/carts/{id}/complete, which charges it.", SHOPPER_ERROR.saved_card_not_charged)
}

/**
 * The charge of an off-session saved-card session, made when it is
 * authorized: a subscription tool's renewal (Medusa's recipe) has no cart
 * completion whose middleware would charge it. The provider cannot reach the
 * plugin's module that holds the token (container isolation), so it runs the
 * app's own workflow, the very one the completion runs (`charge-tw-saved-card`,
 * by its id: a provider imports no workflow), in the app's container: the
 * same ownership check, the same charge row (one charge per session, a
 * second authorization only reads), the same read of an unknown outcome. No
 * cart lock is taken: a caller that authorizes inside core's cart completion
 * holds it already; the charge's own lock and row keep it to one.
 * Answers the session's data with the paid charge (sealed, as the
 * completion's charge leaves it), or undefined while the outcome is unknown;
 * a decline is thrown with the shopper's message.
 */
export async function chargeOffSession(data: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const sessionId = typeof data.session_id === "string" ? data.session_id : undefined
  const workflow = MedusaWorkflow.getWorkflow(SAVED_CARD_CHARGE_WORKFLOW_ID) as
    | ((container: typeof appContainer) => { run(args: { input: Record<string, unknown> }): Promise<{ result: { outcome: SavedCardChargeOutcome } }> })
    | undefined
  if (!sessionId || !workflow || !appContainer.hasRegistration(Modules.PAYMENT)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `An off-session saved-card payment is charged by the workflow ${SAVED_CARD_CHARGE_WORKFLOW_ID} of medusa-payment-tw, which this server has not loaded: add the plugin to the store's plugins.`,
      SHOPPER_ERROR.saved_cards_not_offered
    )
  }
  const { outcome } = await workflow(appContainer)
    .run({ input: { cart_id: null, cart_customer_id: null, payment_session_id: sessionId, off_session: true } })
    .then(({ result }) => result, rethrown)
  if (outcome.status === "declined") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, outcome.message, outcome.code ?? SHOPPER_ERROR.card_declined)
  }
  if (outcome.status === "unknown") {
    return undefined
  }
  const session = await appContainer.resolve(Modules.PAYMENT).retrievePaymentSession(sessionId, { select: ["id", "data"] })
  return session.data
}

/**
 * A workflow's error reaches its caller serialized (a plain object): core's payment module would log it as
 * `[object Object]` and lose its code. Rethrown as the Medusa error it was.
 */
function rethrown(error: unknown): never {
  if (error instanceof MedusaError) {
    throw error
  }
  const { type, message, code } = (error ?? {}) as { type?: string; message?: string; code?: string }
  const known = Object.values(MedusaError.Types).find((value) => value === type)
  throw new MedusaError(known ?? MedusaError.Types.UNEXPECTED_STATE, message ?? "The saved card's charge failed.", code)
}

interface SessionContext {
  customer?: { id?: string } | null
  account_holder?: { external_id?: string; data?: unknown } | null
}

/**
 * The card a session may use. The store middleware already refused a card
 * that is not an active card of the requesting customer; this is the
 * provider's own check on what core hands it: a customer (never a guest) and
 * the card among the saved cards (the plugin's mirror) of that customer's own
 * account holder, whence the last four digits.
 */
export function savedCardOfCustomer(savedCardId: string, context: SessionContext | undefined): SessionSavedCard {
  if (!context?.customer?.id || !context.account_holder) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Paying with a saved card needs a logged-in customer.", SHOPPER_ERROR.saved_card_login_required)
  }
  // The holder is the customer's own only when it was made for them (`createAccountHolder` answers the customer id):
  // a caller of the payment module may pass any holder beside any customer.
  const ownHolder = context.account_holder.external_id === context.customer.id
  const card = ownHolder ? savedCardFacts(context.account_holder.data).find((fact) => fact.id === savedCardId) : undefined
  if (!card) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved card ${savedCardId} is not an active saved card of this customer.`, SHOPPER_ERROR.saved_card_not_yours)
  }
  return { id: card.id, last4: card.last4 }
}

/**
 * An amount change before the charge only changes the amount to charge;
 * after it, the charged amount stands (the cart changed after the payment).
 */
export function updatedSavedCardSession(data: Record<string, unknown>, amount: number): Record<string, unknown> {
  if (data.amount === amount) {
    return data
  }
  if (data.transactionId) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart changed after its saved card was charged; the charge stands for the cart as it was.", SHOPPER_ERROR.saved_card_cart_changed)
  }
  if (data.subscription) {
    throw cartChangedError()
  }
  return { ...data, amount }
}

/**
 * The subscription part of a saved-card subscription's session, before its
 * first call: the date of the first charge from the sealed terms (a later
 * date only creates the schedule; the order then awaits its first charge).
 */
function savedCardSubscription(terms: SubscriptionTerms, amount: number, customerId: string): SessionSubscription {
  if (terms.amount !== amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The cart's total (${amount} TWD) is not the subscription's amount (${terms.amount} TWD); start the subscription checkout again.`, SHOPPER_ERROR.subscription_cart_changed)
  }
  if (terms.customer_id !== customerId) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The subscription belongs to another customer.", SHOPPER_ERROR.subscription_not_yours)
  }
  const today = taipeiDate(new Date())
  const start = terms.start_date ? parseCalendarDate(terms.start_date) : undefined
  const firstChargeLater = !!start && compareCalendarDates(start, today) > 0
  return {
    id: terms.subscription_id,
    kind: terms.kind,
    // Known once the service answered: the first period's transaction, or the S number of a schedule.
    checkoutId: "",
    startDate: formatCalendarDate(firstChargeLater && start ? start : today),
    firstChargeLater,
  }
}

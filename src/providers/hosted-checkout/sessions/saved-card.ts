import type { InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { compareCalendarDates, formatCalendarDate, parseCalendarDate, taipeiDate } from "../../../lib/hosted"
import { savedCardFacts } from "../account-holder"
import type { SessionSavedCard } from "../saved-card-session"
import { freshSessionData, type StorefrontData } from "../session-data"
import type { SessionSubscription, SubscriptionTerms } from "../subscription-session"
import { cartChangedError } from "./subscription"

/**
 * A session on a saved card (docs/saved-cards.md): nothing is charged until
 * the cart's completion, whose middleware charges the card in the app
 * (`saved-card-session.ts` has what that charge sends). Once charged, the
 * session has a transaction and is authorized, cancelled and deleted as a
 * page's is.
 */

/**
 * The data of a saved-card session before its charge: no page and no
 * transaction yet (the charge writes `transactionId`, the read's facts and a
 * sealed read, so the completion's authorization does not read again).
 */
export function initiateSavedCard(
  amount: number,
  input: StorefrontData,
  savedCardId: string,
  terms: SubscriptionTerms | undefined,
  context: InitiatePaymentInput["context"]
): InitiatePaymentOutput {
  const card = savedCardOfCustomer(savedCardId, context)
  const subscription = terms ? savedCardSubscription(terms, amount, context!.customer!.id) : undefined
  const data = { ...freshSessionData, session_id: input.session_id, savedCard: card, amount, ...(subscription ? { subscription } : {}) }
  return { id: input.session_id, status: PaymentSessionStatus.PENDING, data }
}

/** Authorizing before the charge would place an unpaid order: the completion route charges first. */
export function refuseUncharged(): never {
  throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The saved card was not charged: complete the cart with POST /store/carts/{id}/complete, which charges it.")
}

interface SessionContext {
  customer?: { id?: string } | null
  account_holder?: { data?: unknown } | null
}

/**
 * The card a session may use. The store middleware already refused a card
 * that is not an active card of the requesting customer; this is the
 * provider's own check on what core hands it: a customer (never a guest) and
 * the card among their account holder's saved cards (the plugin's mirror),
 * whence the last four digits.
 */
export function savedCardOfCustomer(savedCardId: string, context: SessionContext | undefined): SessionSavedCard {
  if (!context?.customer?.id || !context.account_holder) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Paying with a saved card needs a logged-in customer.")
  }
  const card = savedCardFacts(context.account_holder.data).find((fact) => fact.id === savedCardId)
  if (!card) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved card ${savedCardId} is not an active saved card of this customer.`)
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
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart changed after its saved card was charged; the charge stands for the cart as it was.")
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
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The cart's total (${amount} TWD) is not the subscription's amount (${terms.amount} TWD); start the subscription checkout again.`)
  }
  if (terms.customer_id !== customerId) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The subscription belongs to another customer.")
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

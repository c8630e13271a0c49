import type { InferTypeOf, MedusaContainer, PaymentCustomerDTO, PaymentSessionDTO } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { invoiceLines, type Transaction } from "../../lib/hosted"
import { DeclinedError, PaymentServiceError, UnexpectedResponseError, UnknownOutcomeError } from "../../lib/http"
import { untrusted } from "../../lib/log"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import TwSavedCardCharge, { type SavedCardChargeStatus } from "../../modules/tw-saved-card/models/saved-card-charge"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../modules/tw-subscription"
import { toTwd } from "../../providers/core/money"
import {
  declineMessage,
  type HostedCheckoutApi,
  notChargedMessage,
  PAID,
  pendingMessage,
  refundedMessage,
  refusedMessage,
  type SessionSavedCard,
  sessionSavedCard,
  type SessionSubscription,
  sessionSubscription,
  tokenChargeBody,
  tokenSubscriptionBody,
  transactionFacts,
  unavailableMessage,
} from "../../providers/hosted-checkout/public"
import type { TransactionStatus } from "../../lib/hosted"
import { hostedApi } from "../subscriptions/hosted-api"

/**
 * The charge of a saved-card payment session, made once (docs/saved-cards.md).
 *
 * The hosted API has no idempotency, so the guard is the database: a
 * `tw_saved_card_charge` row, unique per payment session, is written before
 * the token is even decrypted. Whoever inserts it charges; anyone else (a
 * double click, a second process) finds it and goes by its status. After a
 * time-out, a 5xx or `C026` nothing is ever sent again: the charge's `orderId`
 * (the session id) is listed with `GET /order/{orderId}/transactions`, and
 * a charge found there is used. A paid charge is written into the session
 * with a sealed read, so core's authorization at the cart's completion takes
 * it without reading the service again. An outcome the service does not show
 * stays unknown, however long: only a read settles it (paid → the order, or a
 * refund when the cart can no longer take it; failed → declined).
 *
 * What a shopper is told names no internals (a key id, an option, the
 * service's own text): those go to the merchant's log and the charge row.
 */

/** A charge whose row says `charging` longer than this was cut off (a crash): it is settled by reading. */
export const CHARGE_STALE_MS = 2 * 60_000
/** A schedule (no transaction before its date, no read by order) unconfirmed after this long is reported not made. */
export const UNKNOWN_GRACE_MS = 2 * 60_000
/** Codes of the charge row besides the service's own. */
export const CHARGE_CODES = {
  /** The card could not be used (deleted, or its token did not open): nothing was sent. */
  unavailable: "CARD_UNAVAILABLE",
  /** A schedule whose creation could not be confirmed. */
  scheduleUnconfirmed: "SCHEDULE_UNCONFIRMED",
  /** Before this version, an unknown outcome the service did not show within the grace: an open outcome after all. */
  legacyNotCharged: "NOT_CHARGED",
  /** Paid, then refunded: the cart had moved on (paid another way, its session replaced) or could not take it. */
  refunded: "REFUNDED",
} as const

export type ChargeOutcome =
  /** The session holds the paid charge (sealed), or the schedule of a later first charge: complete the cart. */
  | { status: "paid" }
  /** Nothing was charged; the cart stays payable (a new session, with this card or another method). */
  | { status: "declined"; message: string }
  /** Not known yet: the order is not placed; the reconciliation settles it. */
  | { status: "unknown"; message: string }

/** A payment session as the charge needs it (the payment module's own DTO). */
export type SessionRow = PaymentSessionDTO

/** A charge record, as the saved-cards module stores it. */
export type ChargeRow = InferTypeOf<typeof TwSavedCardCharge>

/** A charge the service has given back (or is giving back) in full. */
const REFUNDED: ReadonlySet<TransactionStatus> = new Set(["refunding", "refunded", "refundedPostPayout"])

const savedCards = (container: MedusaContainer) => container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
const providerKeyOf = (providerId: string) => providerId.replace(/^pp_/, "")
const age = (row: ChargeRow, now: number) => now - new Date(row.created_at).getTime()

export async function loadSession(container: MedusaContainer, sessionId: string): Promise<SessionRow | undefined> {
  const payments = container.resolve(Modules.PAYMENT)
  const session = await payments
    .retrievePaymentSession(sessionId, { select: ["id", "provider_id", "amount", "currency_code", "status", "data", "context"] })
    .catch(() => undefined)
  return session
}

function customerOf(session: SessionRow): PaymentCustomerDTO | undefined {
  const customer = (session.context as { customer?: PaymentCustomerDTO } | null | undefined)?.customer
  return customer?.id ? customer : undefined
}

export interface ChargeTarget {
  sessionId: string
  /** The customer of the cart being completed: a saved card pays only for its own customer's cart. */
  cartCustomerId: string | undefined
}

/**
 * Charges the saved card of a payment session, or finds out what its one
 * charge did. Called by the store middleware before core's cart completion,
 * under the cart's lock.
 */
export async function chargeSavedCardSession(container: MedusaContainer, { sessionId, cartCustomerId }: ChargeTarget, now = Date.now()): Promise<ChargeOutcome> {
  const session = await loadSession(container, sessionId)
  const card = sessionSavedCard(session?.data)
  if (!session || !card) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} is not a saved-card session.`)
  }
  if (session.data.transactionId) {
    return { status: "paid" }
  }
  const customer = customerOf(session)
  if (!customer) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Paying with a saved card needs a logged-in customer.")
  }
  const api = hostedApi(container, providerKeyOf(session.provider_id))
  const amount = toTwd(session.amount, session.currency_code)
  if (amount !== session.data.amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart's amount changed after the saved card was chosen: choose it again.")
  }
  const subscription = sessionSubscription(session.data)
  const terms = subscription ? await subscriptionTerms(container, subscription, sessionId) : undefined
  // Built before the row: a body the store cannot send (an e-invoice without a buyer's name) is refused with nothing started.
  if (cartCustomerId !== customer.id) {
    // The session's card is its customer's (checked when it was made); the cart is someone else's: nothing is started.
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The saved card chosen for this cart is not of the cart's customer. Nothing was charged: choose a payment method again.")
  }
  const common = { options: api.options, productLine: (rest: number) => api.productLine(rest), sessionId, amount, data: session.data, customer }
  const body = terms ? tokenSubscriptionBody(common, terms, !!subscription?.firstChargeLater) : tokenChargeBody(common)

  const module = savedCards(container)
  let row: ChargeRow
  try {
    row = await module.createTwSavedCardCharges({
      payment_session_id: sessionId,
      saved_card_id: card.id,
      service_order_id: sessionId,
      amount,
      status: "charging",
    })
  } catch (error) {
    const [existing] = await module.listTwSavedCardCharges({ payment_session_id: sessionId }, { take: 1 })
    if (!existing) {
      throw error
    }
    return existingCharge(container, api, existing, session, card, now)
  }

  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  let token: string
  try {
    token = await module.revealToken(card.id, customer.id)
  } catch (error) {
    // The card was deleted (or its key is gone) since the session was made: nothing was sent. The cause (a key id,
    // advice on tokenKeys) is the merchant's to read, never the shopper's.
    const cause = (error as Error).message
    logger.error(`medusa-payment-tw: saved card ${card.id} cannot be charged for session ${sessionId}: ${untrusted(cause, 300)}`)
    await setRow(container, row, "declined", { code: CHARGE_CODES.unavailable, message: cause })
    return { status: "declined", message: unavailableMessage(card) }
  }

  try {
    if (terms) {
      const answer = await api.client.tokenSubscriptions.create({ ...body, token })
      await container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE).updateTwSubscriptions({ id: subscription!.id, service_subscription_id: answer.subscriptionId })
      if (subscription!.firstChargeLater) {
        await recordSchedule(container, session, subscription!, answer.subscriptionId)
        await setRow(container, row, "paid", { code: "SCHEDULED", message: `schedule ${answer.subscriptionId}, first charge on ${subscription!.startDate}` })
        logger.info(`medusa-payment-tw: saved card ${card.id} scheduled subscription ${answer.subscriptionId} for session ${sessionId}`)
        return { status: "paid" }
      }
      logger.info(`medusa-payment-tw: saved card ${card.id} subscribed (${answer.subscriptionId}) for session ${sessionId}`)
      return settleByReading(container, api, row, session, card, now, { hid: answer.subscriptionId })
    }
    const answer = await api.client.tokenCharges.create({ ...body, token })
    logger.info(`medusa-payment-tw: saved card ${card.id} charged ${amount} TWD (${answer.id}) for session ${sessionId}`)
    // The answer names only the P number: the transaction is read once, for its id and facts.
    return settleByReading(container, api, { ...row, transaction_id: answer.id }, session, card, now)
  } catch (error) {
    if (error instanceof DeclinedError) {
      await setRow(container, row, "declined", { code: error.code, message: error.message })
      logger.info(`medusa-payment-tw: saved card ${card.id} declined (${error.code}) for session ${sessionId}`)
      return { status: "declined", message: declineMessage(card, error.code) }
    }
    if (error instanceof UnknownOutcomeError) {
      logger.warn(`medusa-payment-tw: the charge of saved card ${card.id} for session ${sessionId} has an unknown outcome (${error.code}); reading it, never resending`)
      await setRow(container, row, "unknown", { code: error.code, message: error.message })
      return settleByReading(container, api, { ...row, status: "unknown" }, session, card, now)
    }
    const code = (error as { code?: string }).code ?? "ERROR"
    const cause = (error as Error).message
    if (error instanceof PaymentServiceError && !(error instanceof UnexpectedResponseError)) {
      // Refused before charging (a parameter, the store's credentials, risk control): nothing was charged.
      logger.error(`medusa-payment-tw: the service refused the charge of saved card ${card.id} for session ${sessionId} (${code}): ${untrusted(cause, 300)}`)
      await setRow(container, row, "declined", { code, message: cause })
      return { status: "declined", message: refusedMessage(card) }
    }
    // Anything else may have come after the charge: its outcome is open until a read settles it.
    logger.error(`medusa-payment-tw: the charge of saved card ${card.id} for session ${sessionId} failed unexpectedly; reading it, never resending: ${untrusted(cause, 300)}`)
    await setRow(container, row, "unknown", { code, message: cause })
    return { status: "unknown", message: pendingMessage(card) }
  }
}

/** What a declined row tells the shopper again: a card decline's meaning, or a plain refusal. */
function declinedAgain(card: SessionSavedCard, code: string | null): string {
  if (code === CHARGE_CODES.unavailable) {
    return unavailableMessage(card)
  }
  if (code === CHARGE_CODES.scheduleUnconfirmed) {
    return notChargedMessage(card)
  }
  return !code || /^T000\d$/.test(code) ? declineMessage(card, code) : refusedMessage(card)
}

/** Another completion (or an earlier one) holds the session's one charge: go by what it found. */
async function existingCharge(container: MedusaContainer, api: HostedCheckoutApi, row: ChargeRow, session: SessionRow, card: SessionSavedCard, now: number): Promise<ChargeOutcome> {
  switch (row.status) {
    case "declined":
      if (row.code === CHARGE_CODES.legacyNotCharged) {
        // Declared "not charged" by time alone before this version: still open, the service says.
        return settleByReading(container, api, row, session, card, now)
      }
      return { status: "declined", message: declinedAgain(card, row.code) }
    case "charging":
      if (age(row, now) < CHARGE_STALE_MS) {
        return { status: "unknown", message: pendingMessage(card) }
      }
      return settleByReading(container, api, row, session, card, now)
    default:
      // unknown, or paid but not written into the session yet (a crash in between): the service says.
      return settleByReading(container, api, row, session, card, now)
  }
}

/**
 * What the service shows under the charge's `orderId`: a paid charge is used
 * (written into the session, sealed), a refunded one is settled as such, a
 * failed one is a decline. Nothing at all, or a read that fails, leaves the
 * outcome unknown, however long ago the charge was: time alone never settles
 * it, since the service may still show it paid. (A schedule, which no read
 * finds, is the exception: see below.) Never sends anything.
 */
export async function settleByReading(
  container: MedusaContainer,
  api: HostedCheckoutApi,
  row: ChargeRow,
  session: SessionRow | undefined,
  card: SessionSavedCard,
  now: number,
  extra: { hid?: string } = {}
): Promise<ChargeOutcome & { transaction?: Transaction }> {
  let transactions: Transaction[]
  try {
    transactions = (await api.client.transactions.listByOrder(row.service_order_id)).filter(
      (tx) => tx.merchantId === api.options.merchantId && (tx.customId ?? tx.orderId) === row.service_order_id && tx.amount === row.amount
    )
  } catch (error) {
    await setRow(container, row, "unknown", { transaction_id: row.transaction_id, code: row.code ?? "UNREAD", message: `reading the charge failed: ${(error as Error).message}` })
    return { status: "unknown", message: pendingMessage(card) }
  }
  const paid = transactions.find((tx) => PAID.has(tx.status))
  const refunded = transactions.find((tx) => REFUNDED.has(tx.status))
  if (!paid && refunded) {
    // The money was taken and given back (by the pipeline, as an orphan): nothing is left to settle.
    await setRow(container, row, "paid", { transaction_id: refunded.transactionHid, code: CHARGE_CODES.refunded, message: `refunded (${refunded.status})` })
    return { status: "declined", message: refundedMessage(card) }
  }
  if (paid) {
    if (session) {
      await recordCharge(container, api, session, paid, extra.hid)
    }
    await setRow(container, row, "paid", { transaction_id: paid.transactionHid, code: null, message: null })
    return { status: "paid", transaction: paid }
  }
  if (transactions.some((tx) => tx.status === "failed")) {
    // The read does not say why; a decline code the service answered before is kept.
    const code = row.code && /^T000\d$/.test(row.code) ? row.code : null
    await setRow(container, row, "declined", { code, message: "the service shows the charge failed" })
    return { status: "declined", message: declineMessage(card, code) }
  }
  if (session && sessionSubscription(session.data)?.firstChargeLater) {
    // A schedule has no transaction before its date, and the service has no query by orderId for subscriptions.
    if (age(row, now) >= UNKNOWN_GRACE_MS) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .error(`medusa-payment-tw: the schedule of session ${row.service_order_id} could not be confirmed; check the service's console for a subscription of order ${row.service_order_id} and cancel it`)
      await setRow(container, row, "declined", { code: CHARGE_CODES.scheduleUnconfirmed, message: "the schedule could not be confirmed" })
      return { status: "declined", message: notChargedMessage(card) }
    }
    return { status: "unknown", message: pendingMessage(card) }
  }
  if (row.status !== "unknown") {
    await setRow(container, row, "unknown", { transaction_id: row.transaction_id, code: row.code ?? "UNCONFIRMED", message: "the service shows no charge yet" })
  }
  return { status: "unknown", message: pendingMessage(card) }
}

async function setRow(container: MedusaContainer, row: ChargeRow, status: SavedCardChargeStatus, changes: Partial<Pick<ChargeRow, "transaction_id" | "code" | "message">> = {}) {
  // Messages are the clients' redacted ones; they are cut so a row cannot grow without bound.
  const message = changes.message === undefined ? undefined : changes.message === null ? null : untrusted(changes.message, 300)
  await savedCards(container).updateTwSavedCardCharges({ id: row.id, status, ...changes, ...(message === undefined ? {} : { message }) })
}

/**
 * The paid charge becomes the session's transaction, with the read's facts
 * and a sealed read: core's authorization at the cart's completion then
 * captures it without another read. A subscription's session also learns its
 * first period's transaction and S number.
 */
async function recordCharge(container: MedusaContainer, api: HostedCheckoutApi, session: SessionRow, tx: Transaction, hid: string | undefined) {
  const current = await loadSession(container, session.id)
  if (!current || current.data.transactionId === tx.id) {
    return
  }
  const subscription = sessionSubscription(current.data)
  // A charge and a subscription alike are invoiced on the cart's lines (tokenChargeBody, tokenSubscriptionBody).
  const einvoiced = api.options.einvoice
  const data = {
    ...current.data,
    transactionId: tx.id,
    transactionHid: tx.transactionHid,
    ...transactionFacts(tx),
    ...(einvoiced ? { invoiceLines: invoiceLines((current.data.lines as never) ?? [], tx.amount, (rest) => api.productLine(rest)) } : {}),
    ...(subscription ? { subscription: { ...subscription, checkoutId: tx.id, ...(hid ? { hid } : {}) } } : {}),
    attestation: api.attestor.seal({ sessionId: session.id, serviceId: tx.id, amount: tx.amount, status: tx.status }),
  }
  await container.resolve(Modules.PAYMENT).updatePaymentSession({ id: session.id, amount: current.amount, currency_code: current.currency_code, data })
}

/** A later first charge: the schedule's S number stands in for the page, as a scheduled checkout's does (`awaitsFirstCharge`). */
async function recordSchedule(container: MedusaContainer, session: SessionRow, subscription: SessionSubscription, hid: string) {
  await container.resolve(Modules.PAYMENT).updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: { ...session.data, transactionId: hid, transactionHid: hid, subscription: { ...subscription, checkoutId: hid, hid } },
  })
}

/** The subscription's terms as agreed at its checkout (the row the session was opened for). */
async function subscriptionTerms(container: MedusaContainer, subscription: SessionSubscription, sessionId: string) {
  const row = await container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE).retrieveTwSubscription(subscription.id)
  if (row.payment_session_id !== sessionId || row.status !== "pending") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This subscription checkout was replaced or has ended: start the subscription checkout again.")
  }
  return { interval_months: row.interval_months, periods: row.periods_total, start_date: row.start_date, customer_id: row.customer_id }
}

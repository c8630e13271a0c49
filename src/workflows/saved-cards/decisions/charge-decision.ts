import type { Transaction } from "../../../lib/hosted"
import type { SavedCardChargeStatus } from "../../../modules/tw-saved-card/models/saved-card-charge"
import { hostedDeclineCode, SHOPPER_ERROR } from "../../../providers/core/shopper-error-codes"
import {
  declineMessage,
  notChargedMessage,
  PAID,
  pendingMessage,
  REFUND_STATES,
  refundedMessage,
  refusedMessage,
  type SavedCardChargeOutcome,
  type SessionSavedCard,
  unavailableMessage,
} from "../../../providers/hosted-checkout/public"

/**
 * What a saved card's charge means, decided without side effects: what the
 * send's answer (or an earlier attempt's row) leaves on the charge row, and
 * what a read of the service settles (docs/saved-cards.md). The workflows
 * `charge-tw-saved-card` and `settle-tw-saved-card-charge` write what these
 * functions say. Time alone never settles an outcome; only a read does.
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
  /** A later first charge whose schedule the service created. */
  scheduled: "SCHEDULED",
} as const

/**
 * paid: the session holds the paid charge (sealed), or the schedule of a later first charge: complete the cart.
 * declined: nothing was charged; the cart stays payable (a new session, with this card or another method), with the shopper's code.
 * unknown: not known yet: the order is not placed; the reconciliation settles it.
 * The provider's type: its authorization of an off-session session runs the same workflow.
 */
export type ChargeOutcome = SavedCardChargeOutcome

/** A card decline's shopper code (`T0001`-`T0005`, or a plain decline). */
const cardDeclineCode = (code: string | null | undefined) => hostedDeclineCode(code) ?? SHOPPER_ERROR.card_declined

/** A charge row as the decisions read it. */
export interface ChargeFacts {
  id: string
  status: SavedCardChargeStatus
  code: string | null
  transaction_id: string | null
  service_order_id: string
  amount: number
  /** ISO time: when the charge started. */
  created_at: string
}

/** What is written onto a charge row: only the fields given. */
export interface ChargeChange {
  status?: SavedCardChargeStatus
  transaction_id?: string | null
  code?: string | null
  message?: string | null
}

/** What the service answered the one send (the token is never part of it). */
export type SendResult =
  /** The card could not be used (deleted meanwhile, its key gone): nothing was sent. */
  | { kind: "unavailable"; cause: string }
  /** A card decline (`T0001`-`T0005`). */
  | { kind: "declined"; code: string; cause: string }
  /** Refused before charging (a parameter, credentials, risk control): nothing was charged. */
  | { kind: "refused"; code: string; cause: string }
  /** A time-out, a 5xx or `C026`: read by its order, never resent. */
  | { kind: "unknown"; code: string; cause: string }
  /** Anything else, which may have come after the charge: open until a read settles it. */
  | { kind: "failed"; code: string; cause: string }
  /** Charged: the answer names the P number only. */
  | { kind: "charged"; transaction_hid: string }
  /** A subscription created: charged now, or only scheduled for its later first date. */
  | { kind: "subscribed"; subscription_id: string; first_charge_on: string | null }

/** Whether a send's answer leaves something at the service (a charge, a schedule, or an outcome not known). */
export const sentSomething = (sent: SendResult) => sent.kind !== "unavailable"

/** What happens next to a charge: an outcome now, or a read of the service on the row as given. */
export interface ChargePlan {
  /** Written onto the row before anything else. */
  change: ChargeChange | null
  /** Settled without a read. */
  outcome: ChargeOutcome | null
  /** Settled by reading: the row as the read judges it, and the subscription's S number when the answer gave one. */
  read: { row: ChargeFacts; hid: string | null } | null
}

const done = (outcome: ChargeOutcome, change: ChargeChange | null = null): ChargePlan => ({ change, outcome, read: null })
const readNext = (row: ChargeFacts, change: ChargeChange | null = null, hid: string | null = null): ChargePlan => ({ change, outcome: null, read: { row, hid } })

/** After this process's own send. */
export function planAfterSend(card: SessionSavedCard, row: ChargeFacts, sent: SendResult): ChargePlan {
  switch (sent.kind) {
    case "unavailable":
      return done({ status: "declined", message: unavailableMessage(card), code: SHOPPER_ERROR.saved_card_unavailable }, { status: "declined", code: CHARGE_CODES.unavailable, message: sent.cause })
    case "declined":
      return done({ status: "declined", message: declineMessage(card, sent.code), code: cardDeclineCode(sent.code) }, { status: "declined", code: sent.code, message: sent.cause })
    case "refused":
      return done({ status: "declined", message: refusedMessage(card), code: SHOPPER_ERROR.saved_card_refused }, { status: "declined", code: sent.code, message: sent.cause })
    case "unknown":
      return readNext({ ...row, status: "unknown" }, { status: "unknown", code: sent.code, message: sent.cause })
    case "failed":
      return done({ status: "unknown", message: pendingMessage(card) }, { status: "unknown", code: sent.code, message: sent.cause })
    case "charged":
      return readNext({ ...row, transaction_id: sent.transaction_hid })
    case "subscribed":
      if (sent.first_charge_on !== null) {
        const message = `schedule ${sent.subscription_id}, first charge on ${sent.first_charge_on}`
        return done({ status: "paid" }, { status: "paid", code: CHARGE_CODES.scheduled, message })
      }
      return readNext(row, null, sent.subscription_id)
  }
}

/** What a send left on the row when the rest of its run is undone: never "not sent", so it is never sent again and a read settles it. */
export function changeAfterUndoneSend(card: SessionSavedCard, row: ChargeFacts, sent: SendResult): ChargeChange {
  const plan = planAfterSend(card, row, sent)
  return plan.change && plan.change.status !== "paid" ? plan.change : { status: "unknown", code: "UNRECORDED", message: "the charge's outcome could not be recorded" }
}

/** What a declined row tells the shopper again: a card decline's meaning, or a plain refusal. */
function declinedAgain(card: SessionSavedCard, code: string | null): ChargeOutcome {
  if (code === CHARGE_CODES.unavailable) {
    return { status: "declined", message: unavailableMessage(card), code: SHOPPER_ERROR.saved_card_unavailable }
  }
  if (code === CHARGE_CODES.scheduleUnconfirmed) {
    return { status: "declined", message: notChargedMessage(card), code: SHOPPER_ERROR.saved_card_not_charged }
  }
  return !code || /^T000\d$/.test(code)
    ? { status: "declined", message: declineMessage(card, code), code: cardDeclineCode(code) }
    : { status: "declined", message: refusedMessage(card), code: SHOPPER_ERROR.saved_card_refused }
}

const age = (row: ChargeFacts, now: number) => now - new Date(row.created_at).getTime()

/** Another completion (or an earlier one) holds the session's one charge: go by what it found. */
export function planExisting(card: SessionSavedCard, row: ChargeFacts, now: number): ChargePlan {
  switch (row.status) {
    case "declined":
      // Declared "not charged" by time alone before this version: still open, the service says.
      return row.code === CHARGE_CODES.legacyNotCharged ? readNext(row) : done(declinedAgain(card, row.code))
    case "charging":
      return age(row, now) < CHARGE_STALE_MS ? done({ status: "unknown", message: pendingMessage(card) }) : readNext(row)
    default:
      // unknown, or paid but not written into the session yet (a crash in between): the service says.
      return readNext(row)
  }
}

/** A read of the charge's `orderId`: its transactions of this merchant and amount, or why it failed. */
export type ChargeRead = { ok: true; transactions: Transaction[] } | { ok: false; error: string }

/** What a read settles. */
export interface Settlement {
  outcome: ChargeOutcome
  change: ChargeChange | null
  /** A paid charge, to be written into the session (sealed), with the subscription's S number when known. */
  charge: { transaction: Transaction; hid: string | null } | null
  /** For the merchant's log (an error): something to check at the service by hand. */
  alert: string | null
}

/**
 * What the service shows under the charge's `orderId`: a paid charge is used
 * (written into the session, sealed), a refunded one is settled as such, a
 * failed one is a decline. Nothing at all, or a read that fails, leaves the
 * outcome unknown, however long ago the charge was: the service may still
 * show it paid. A schedule, which no read finds, is the exception: unconfirmed
 * past the grace, it is reported not made.
 */
export function settleFromRead(
  card: SessionSavedCard,
  row: ChargeFacts,
  read: ChargeRead,
  { schedule, hid, now }: { schedule: boolean; hid: string | null; now: number }
): Settlement {
  const unknown = (change: ChargeChange | null): Settlement => ({ outcome: { status: "unknown", message: pendingMessage(card) }, change, charge: null, alert: null })
  if (!read.ok) {
    return unknown({ status: "unknown", transaction_id: row.transaction_id, code: row.code ?? "UNREAD", message: `reading the charge failed: ${read.error}` })
  }
  const paid = read.transactions.find((tx) => PAID.has(tx.status))
  const refunded = read.transactions.find((tx) => REFUND_STATES.has(tx.status))
  if (!paid && refunded) {
    // The money was taken and given back (by the pipeline, as an orphan): nothing is left to settle.
    return {
      outcome: { status: "declined", message: refundedMessage(card), code: SHOPPER_ERROR.saved_card_charge_refunded },
      change: { status: "paid", transaction_id: refunded.transactionHid, code: CHARGE_CODES.refunded, message: `refunded (${refunded.status})` },
      charge: null,
      alert: null,
    }
  }
  if (paid) {
    return { outcome: { status: "paid" }, change: { status: "paid", transaction_id: paid.transactionHid, code: null, message: null }, charge: { transaction: paid, hid }, alert: null }
  }
  if (read.transactions.some((tx) => tx.status === "failed")) {
    // The read does not say why; a decline code the service answered before is kept.
    const code = row.code && /^T000\d$/.test(row.code) ? row.code : null
    return {
      outcome: { status: "declined", message: declineMessage(card, code), code: cardDeclineCode(code) },
      change: { status: "declined", code, message: "the service shows the charge failed" },
      charge: null,
      alert: null,
    }
  }
  if (schedule) {
    // A schedule has no transaction before its date, and the service has no query by orderId for subscriptions.
    if (age(row, now) < UNKNOWN_GRACE_MS) {
      return unknown(null)
    }
    return {
      outcome: { status: "declined", message: notChargedMessage(card), code: SHOPPER_ERROR.saved_card_not_charged },
      change: { status: "declined", code: CHARGE_CODES.scheduleUnconfirmed, message: "the schedule could not be confirmed" },
      charge: null,
      alert: `the schedule of session ${row.service_order_id} could not be confirmed; check the service's console for a subscription of order ${row.service_order_id} and cancel it`,
    }
  }
  return unknown(row.status === "unknown" ? null : { status: "unknown", transaction_id: row.transaction_id, code: row.code ?? "UNCONFIRMED", message: "the service shows no charge yet" })
}

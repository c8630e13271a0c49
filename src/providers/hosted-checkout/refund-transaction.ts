import { MedusaError } from "@medusajs/framework/utils"
import { allowanceLines, type Transaction } from "../../lib/hosted"
import { DeclinedError, InvalidRequestError, PaymentServiceError, UnknownOutcomeError } from "../../lib/http"
import { toMedusaError } from "../core/medusa-errors"
import { invoiceError } from "./invoice-errors"
import type { HostedDeps } from "./provider-deps"
import type { HostedSessionData } from "./hosted-checkout-session-data"
import { PAID } from "./hosted-checkout-status-map"

/** Where an admin supplies a shopper's bank account for a cvs/atm refund. */
export const REMITTANCE_ROUTE = "/admin/tw-payments/{payment_id}/remittance"

/**
 * Refunds of a hosted payment, whatever its session kind: the service allows
 * one refund per transaction, cvs/atm money goes back by bank remittance, and
 * with e-invoices on the refund carries allowance lines.
 */

/** A retried call for the refund already made (same Medusa refund id): not a second refund. */
export function repeatsRefund(session: HostedSessionData, tx: Transaction, refundId: string | undefined): boolean {
  return !!session.refund && session.refund.id === refundId && tx.refundAmount === session.refund.amount
}

/** Refunds `amount` of the checked transaction `tx`; returns what the session's data then says. */
export async function refundTransaction(
  { client, options, logger, productLine }: HostedDeps,
  session: HostedSessionData,
  tx: Transaction,
  amount: number,
  refundId: string | undefined
): Promise<Partial<HostedSessionData>> {
  if (tx.refundAmount || !PAID.has(tx.status)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      tx.refundAmount
        ? `Transaction ${tx.transactionHid} was already refunded (${tx.refundAmount} TWD, ${tx.status}). ` +
            "The service allows one refund per transaction, and a partial refund uses it up: return any further amount outside the service."
        : `Transaction ${tx.transactionHid} is ${tx.status}; only paid transactions can be refunded.`
    )
  }
  if (amount > tx.amount) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cannot refund ${amount} TWD of a ${tx.amount} TWD payment.`)
  }
  const needsRemittance = tx.paymentMethod === "cvs" || tx.paymentMethod === "atm"
  if (needsRemittance && !session.remitInfo) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `A paid ${tx.paymentMethod === "cvs" ? "convenience-store" : "bank transfer"} payment is refunded by bank remittance: ` +
        `first supply the shopper's bank account with POST ${REMITTANCE_ROUTE} (or the "Hosted checkout" box on the order page), then refund again.`
    )
  }

  let result: { status: Transaction["status"]; refundAmount: number }
  try {
    result = await client.refunds.create(tx.transactionHid, {
      amount,
      reason: "Refund from the store",
      ...(needsRemittance ? { remitInfo: session.remitInfo } : {}),
      // Allowance lines of the refund; see `allowanceLines` (docs/providers.md, "E-invoices").
      ...(options.einvoice ? { productDetails: allowanceLines(session.invoiceLines, amount, productLine) } : {}),
    })
  } catch (error) {
    result = await refundOutcome(client, tx, amount, error)
  }
  logger.info(`hosted-checkout: refunded ${result.refundAmount} TWD of ${tx.transactionHid} (${result.status})`)
  return {
    status: result.status,
    refundAmount: result.refundAmount,
    // The bank account was needed once; keep only what identifies it.
    remitInfo: undefined,
    refund: { id: refundId, amount: result.refundAmount, status: result.status, at: new Date().toISOString() },
  }
}

/**
 * After a refund call whose answer is unknown or refused, the transaction is
 * re-read before anything else: a refund that did happen is success, one that
 * did not is a clear error and nothing is resent.
 */
async function refundOutcome(client: HostedDeps["client"], tx: Transaction, amount: number, error: unknown) {
  const unknown = error instanceof UnknownOutcomeError || (error instanceof PaymentServiceError && error.retryable)
  if (!unknown && !(error instanceof DeclinedError)) {
    if (error instanceof InvalidRequestError && error.variant === "CURRENT_CHARGED_AMOUNT_TOO_LOW") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "The service refuses refunds while the store's collected but not yet paid-out amount is below 200 TWD. Try again after the next sales, or refund outside the service."
      )
    }
    throw invoiceError(`Refunding ${tx.transactionHid}`, error) ?? toMedusaError(`Refunding ${tx.transactionHid}`, error)
  }
  const after = await client.transactions.retrieve(tx.id).catch(() => undefined)
  if (after?.refundAmount === amount) {
    return { status: after.status, refundAmount: amount }
  }
  if (error instanceof DeclinedError) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The acquirer rejected the refund of ${tx.transactionHid} (R0001); the transaction is ${after?.status ?? "unknown"}. ` +
        "Try again later; if the service then answers that the state does not allow a refund, confirm it with the service."
    )
  }
  throw new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `The refund of ${tx.transactionHid} got no clear answer, and a fresh read shows ${after ? `${after.status} with no refund` : "nothing"}. Nothing was resent; try again in a minute.`
  )
}

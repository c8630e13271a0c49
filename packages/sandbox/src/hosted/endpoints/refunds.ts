import { z } from "zod"
import { type HostedContext, JOBS, TIMINGS } from "../context"
import { HostedError, stateError, systemError, validationError } from "../envelope"
import { refundId, TRANSACTION_HID_PATTERN } from "../ids"
import type { HostedTransaction, ProductDetail, RefundRecord, RemitInfo } from "../records"
import { addWorkingDays } from "../taipei-time"
import { cardBehaviour } from "../test-cards"
import { isPaid, moveTo } from "../transactions"
import { checkMerchantId, formatPath, productDetailsSchema, productTotal, requireObject } from "../validation"
import type { HostedCall } from "./call"

/**
 * POST /refunds/{transactionHid} (spec 4.10). One refund per transaction, from
 * `charged` or `claimed`. Card and Apple Pay: `refunded`, or `refundedPostPayout`
 * once paid out; LINE Pay: `refunded`; paid cvs/atm: `refunding` with remittance
 * details, `refunded` when the transfer completes (3 working days later).
 *
 * The spec's row "refund of unpaid convenience-store code -> cancelled" sits under
 * "charged or claimed" but describes a code nobody has paid, which is `charging`;
 * the sandbox reads it that way: a refund of a `charging` cvs code cancels it.
 *
 * Order of checks: merchantId, transaction, refundable state (V0002), body and
 * conditional rules (V0001), collected amount (F0001), acquirer (R0001).
 */

const text = z.string({ error: (i) => (i.input === undefined ? "required" : "must be a string") })
const remitInfoSchema = z.object(
  {
    bankCode: text.min(1, "must not be empty"),
    bankName: text.min(1, "must not be empty"),
    branchCode: text.min(1, "must not be empty"),
    branchName: text.min(1, "must not be empty"),
    account: text.min(8, "must have 8 to 14 characters").max(14, "must have 8 to 14 characters"),
    accountName: text.min(1, "must not be empty"),
  },
  { error: "must be an object" }
)
const refundBodySchema = z.object({
  amount: z.int({ error: "must be an integer >= 1" }).min(1, "must be an integer >= 1").optional(),
  reason: text.optional(),
  remitInfo: remitInfoSchema.optional(),
  productDetails: productDetailsSchema.optional(),
})

export function refundTransaction(ctx: HostedContext, call: HostedCall) {
  const body = requireObject(call.body)
  checkMerchantId(body, call.merchant)
  const hid = call.params.transactionHid
  const tx = TRANSACTION_HID_PATTERN.test(hid) ? ctx.records.transactionByHid(hid) : undefined
  if (!tx || tx.merchantId !== call.merchant.merchantId) {
    throw validationError(["transaction not found"])
  }
  const unpaidCode = tx.status === "charging" && tx.paymentMethod === "cvs"
  if ((!isPaid(tx) && !unpaidCode) || tx.refund) {
    throw stateError(tx.refund ? "Transaction has already been refunded" : `Transaction cannot be refunded in status ${tx.status}`)
  }
  const parsed = refundBodySchema.safeParse(body)
  const rules = parsed.success ? [] : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)
  const amount = parsed.success ? (parsed.data.amount ?? tx.amount) : tx.amount
  if (parsed.success) {
    rules.push(...conditionalRules(tx, amount, body, unpaidCode))
  }
  if (rules.length > 0) {
    throw validationError(rules)
  }
  const input = parsed.data ?? {}
  const now = ctx.core.clock.now().toISOString()
  if (unpaidCode) {
    // No money moved: the payment code is simply withdrawn.
    moveTo(tx, "cancelled")
    return settle(ctx, tx, { id: refundId(), amount: tx.amount, status: "cancelled", reason: input.reason, requestedAt: now, resolvedAt: now })
  }
  if (collectedNotPaidOut(ctx, tx.merchantId) < TIMINGS.minimumCollectedForRefund) {
    throw systemError("Current charged amount too low")
  }
  if (tx.card && cardBehaviour(tx.card.number).refundRejected) {
    throw new HostedError(400, "R0001", "Refund rejected by the acquirer")
  }
  const refund: RefundRecord = { id: refundId(), amount, status: "refunded", reason: input.reason, requestedAt: now }
  if (tx.invoiced) {
    refund.allowance = input.productDetails as ProductDetail[]
  }
  if (tx.paymentMethod === "cvs" || tx.paymentMethod === "atm") {
    refund.status = "refunding"
    refund.remitInfo = input.remitInfo as RemitInfo
    moveTo(tx, "refunding")
    ctx.core.scheduler.schedule(JOBS.remittance, addWorkingDays(ctx.core.clock.nowMs(), TIMINGS.remittanceWorkingDays), {
      transactionId: tx.id,
    })
    return settle(ctx, tx, refund)
  }
  refund.resolvedAt = now
  // Card and wallet refunds after payout come out of the next payout; LINE Pay returns to the wallet at once.
  moveTo(tx, tx.paidOutAt && tx.paymentMethod !== "linePay" ? "refundedPostPayout" : "refunded")
  return settle(ctx, tx, refund)
}

/** Remittance of a cvs/atm refund completes: `refunding` -> `refunded`. */
export function registerRemittanceJob(ctx: HostedContext): void {
  ctx.core.scheduler.register(JOBS.remittance, (payload) => {
    const tx = ctx.records.transaction(payload.transactionId as string)
    if (tx?.status !== "refunding" || !tx.refund) {
      return
    }
    moveTo(tx, "refunded")
    tx.refund.status = "refunded"
    tx.refund.resolvedAt = ctx.core.clock.now().toISOString()
    ctx.notifier.refund(tx, tx.refund)
  })
}

function settle(ctx: HostedContext, tx: HostedTransaction, refund: RefundRecord) {
  tx.refund = refund
  ctx.notifier.refund(tx, refund)
  return { status: tx.status, refundAmount: refund.amount }
}

function conditionalRules(tx: HostedTransaction, amount: number, body: Record<string, unknown>, unpaidCode: boolean): string[] {
  const rules: string[] = []
  if (amount > tx.amount) {
    rules.push("amount: must not exceed the original amount")
  }
  if (!unpaidCode && (tx.paymentMethod === "cvs" || tx.paymentMethod === "atm") && body.remitInfo === undefined) {
    rules.push("REMITTANCE_INFO_REQUIRED")
  }
  if (tx.invoiced && !unpaidCode) {
    if (body.productDetails === undefined) {
      rules.push("PRODUCT_DETAILS_REQUIRED")
    } else if (productTotal(body.productDetails) !== amount) {
      rules.push("PRODUCT_AMOUNT_NOT_MATCH")
    }
  }
  return rules
}

/** The domain's paid transactions whose money has not yet gone out in a payout. */
function collectedNotPaidOut(ctx: HostedContext, merchantId: string): number {
  return ctx.records
    .transactions(merchantId)
    .filter((tx) => isPaid(tx) && !tx.paidOutAt)
    .reduce((sum, tx) => sum + tx.amount, 0)
}

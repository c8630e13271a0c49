import { withoutEmpty } from "./envelope"
import type { HostedSubscription, HostedTransaction } from "./records"

/**
 * What queries return. Transaction fields are those of spec 2.4 (currency upper
 * case, as in requests); looked up by P number the record lacks `productDetails`
 * and `numberOfPeriods`. Subscription fields are those of 2.5 plus
 * `numberOfPeriods`, `amount` and `nextChargeAt`. Empty fields are dropped by the
 * envelope.
 */

export function transactionView(tx: HostedTransaction, options: { byHid?: boolean } = {}): Record<string, unknown> {
  return withoutEmpty({
    id: tx.id,
    transactionId: tx.id,
    transactionHid: tx.hid,
    merchantId: tx.merchantId,
    orderId: tx.orderId,
    status: tx.status,
    amount: tx.amount,
    currency: "TWD",
    paymentMethod: tx.paymentMethod,
    paymentInfo: tx.paymentInfo,
    authCode: tx.authCode,
    customId: tx.customId,
    userId: tx.userId,
    productDetails: options.byHid ? undefined : tx.productDetails,
    numberOfPeriods: options.byHid ? undefined : tx.numberOfPeriods,
    refundAmount: tx.refund?.amount,
    createdAt: tx.createdAt,
    paidAt: tx.paidAt,
  })
}

export function subscriptionView(sub: HostedSubscription): Record<string, unknown> {
  return withoutEmpty({
    id: sub.hid,
    status: sub.status,
    period: sub.period,
    paymentInterval: sub.paymentInterval,
    numberOfPeriods: sub.numberOfPeriods,
    amount: sub.amount,
    nextChargeAt: sub.nextChargeAt,
    startedAt: sub.startedAt,
    cancelledAt: sub.cancelledAt,
    reason: sub.reason,
    createdAt: sub.createdAt,
  })
}

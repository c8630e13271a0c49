"use client"
import { formatTaipeiTime, type OrderWithPayment, orderPaymentOf, type PaymentInstructions } from "../core/order-payment.js"
import type { KitTextKey } from "../messages/index.js"
import { useTwPayment } from "./context.js"

export interface OrderPaymentStatusProps {
  /** The order, queried with `ORDER_PAYMENT_FIELDS` (its payment status and payment sessions). */
  order: OrderWithPayment
  className?: string
}

const METHODS = new Set(["card", "cvs", "atm", "linePay", "applePay"])

/**
 * An order's payment through the plugin, for the confirmation page: Paid,
 * Awaiting payment (with the convenience-store code or the bank account to
 * pay, and the deadline in Taipei time), Payment authorized, Refunded or
 * Canceled, and how the shopper paid. Nothing for an order another provider took.
 */
export function OrderPaymentStatus({ order, className }: OrderPaymentStatusProps) {
  const { text, classNames } = useTwPayment()
  const payment = orderPaymentOf(order)
  if (!payment) {
    return null
  }
  const amount = payment.amount.toLocaleString("en-US")
  const instructions = (found: PaymentInstructions) =>
    found.kind === "cvs"
      ? text("cvs_instructions", { amount, code: found.code, expires_at: formatTaipeiTime(found.payBefore) })
      : text("atm_instructions", { amount, bank_name: found.bankName, bank_code: found.bankCode, account: found.account, expires_at: formatTaipeiTime(found.payBefore) })
  return (
    <section className={className} data-testid="order-payment" data-state={payment.state}>
      <h2 className={classNames.title}>{text("order_payment_title")}</h2>
      <p data-testid="order-payment-state">
        {text(`order_payment_${payment.state}`)}
        {payment.method && METHODS.has(payment.method) ? ` · ${text(`payment_method_${payment.method}` as KitTextKey)}` : null}
      </p>
      {payment.instructions ? <p data-testid="order-payment-instructions">{instructions(payment.instructions)}</p> : null}
    </section>
  )
}

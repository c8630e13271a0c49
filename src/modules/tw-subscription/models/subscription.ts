import { model } from "@medusajs/framework/utils"
import { PLAN_KINDS, SUBSCRIPTION_STATUSES } from "../../../shared/statuses"
import TwSubscriptionPeriod from "./period"

// Re-exported for the server code that names them from the model.
export { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../../../shared/statuses"

/**
 * One customer's subscription: the plan as agreed at checkout, the service's
 * subscription (S number) it mirrors, and where it stands. Every change after
 * checkout comes from a fresh read of the service.
 */
const TwSubscription = model
  .define("tw_subscription", {
    id: model.id({ prefix: "twsub" }).primaryKey(),
    status: model.enum([...SUBSCRIPTION_STATUSES]).default("pending"),
    customer_id: model.text().index(),
    plan_id: model.text().nullable(),
    /** `{identifier}_{id}` of the hosted-checkout provider that opened it. */
    provider_key: model.text(),
    cart_id: model.text().index(),
    /** The payment session of the checkout: the service's `orderId` and `customId` of every period. */
    payment_session_id: model.text().nullable(),
    /** The service's S number, once known. */
    service_subscription_id: model.text().nullable(),
    kind: model.enum([...PLAN_KINDS]),
    interval_months: model.number(),
    /** Whole TWD charged each period. */
    amount: model.number(),
    currency_code: model.text().default("twd"),
    periods_total: model.number().nullable(),
    periods_charged: model.number().default(0),
    /** Taipei date (`yyyy/MM/dd`) of the first charge. */
    start_date: model.text().nullable(),
    next_charge_at: model.dateTime().nullable(),
    card_last4: model.text().nullable(),
    first_order_id: model.text().nullable(),
    cancel_reason: model.text().nullable(),
    cancelled_at: model.dateTime().nullable(),
    /** When the service was last read for it (the reconciliation reads the stalest first). */
    synced_at: model.dateTime().nullable(),
    periods: model.hasMany(() => TwSubscriptionPeriod, { mappedBy: "subscription" }),
  })
  .cascades({ delete: ["periods"] })
  .indexes([
    { on: ["service_subscription_id"], unique: true, where: "service_subscription_id IS NOT NULL AND deleted_at IS NULL" },
    { on: ["payment_session_id"], unique: true, where: "payment_session_id IS NOT NULL AND deleted_at IS NULL" },
    { on: ["status"] },
  ])
export default TwSubscription

import { model } from "@medusajs/framework/utils"
import { PERIOD_STATUSES } from "../../../shared/statuses"
import TwSubscription from "./subscription"

export { PERIOD_STATUSES, type PeriodStatus } from "../../../shared/statuses"

/**
 * One period of a subscription as the service charged it. Unique per
 * (subscription, period): a paid period can never get a second order.
 */
const TwSubscriptionPeriod = model
  .define("tw_subscription_period", {
    id: model.id({ prefix: "twper" }).primaryKey(),
    period: model.number(),
    status: model.enum([...PERIOD_STATUSES]),
    /** The transaction that paid it, or the last that failed. */
    transaction_id: model.text().nullable(),
    transaction_hid: model.text().nullable(),
    amount: model.number(),
    attempts: model.number().default(1),
    paid_at: model.dateTime().nullable(),
    /** The first order (period 1) or the renewal order; null until placed. */
    order_id: model.text().nullable(),
    /** The order's payment is recorded (captured with this period's transaction). */
    order_paid: model.boolean().default(false),
    subscription: model.belongsTo(() => TwSubscription, { mappedBy: "periods" }),
  })
  .indexes([{ on: ["subscription_id", "period"], unique: true, where: "deleted_at IS NULL" }])
export default TwSubscriptionPeriod

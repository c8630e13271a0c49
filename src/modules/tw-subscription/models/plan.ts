import { model } from "@medusajs/framework/utils"
import { PLAN_KINDS } from "../../../shared/statuses"

/**
 * A product variant offered as a subscription. The plan is copied onto each
 * subscription when it starts, so changing or deleting a plan never changes
 * what a shopper already agreed to.
 */
const TwSubscriptionPlan = model
  .define("tw_subscription_plan", {
    id: model.id({ prefix: "twplan" }).primaryKey(),
    variant_id: model.text().index(),
    title: model.text(),
    /** `monthly` (the service's `/checkout-subscription`) or `scheduled` (`/checkout-schedule`). */
    kind: model.enum([...PLAN_KINDS]),
    /** Months between charges, 1 to 12; always 1 for `monthly`. */
    interval_months: model.number().default(1),
    /** Number of charges (2 or more); null: until cancelled. */
    periods: model.number().nullable(),
    /** `scheduled` only: days from checkout to the first charge (0: charged at checkout). */
    first_charge_delay_days: model.number().default(0),
    active: model.boolean().default(true),
  })
export default TwSubscriptionPlan

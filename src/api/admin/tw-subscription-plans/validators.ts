import { z } from "@medusajs/framework/zod"

/**
 * Bodies of the plan routes (docs/subscriptions.md). The framework's messages
 * drop a refinement's path, so each refinement's message names its field.
 */

const planFields = {
  title: z.string().trim().min(1).max(100),
  kind: z.enum(["monthly", "scheduled"]),
  interval_months: z.int().min(1).max(12),
  periods: z.int().min(2).max(999).nullable(),
  first_charge_delay_days: z.int().min(0).max(364),
  active: z.boolean(),
}

/** The service's rules (spec 4.2, 4.3): monthly charges every month from checkout. */
const monthlyRules = (plan: { kind?: string; interval_months?: number; first_charge_delay_days?: number }, ctx: z.RefinementCtx) => {
  if (plan.kind === "monthly" && plan.interval_months !== undefined && plan.interval_months !== 1) {
    ctx.addIssue({ code: "custom", path: ["interval_months"], message: "interval_months must be 1 for a monthly plan (use scheduled for other intervals)" })
  }
  if (plan.kind === "monthly" && plan.first_charge_delay_days) {
    ctx.addIssue({ code: "custom", path: ["first_charge_delay_days"], message: "first_charge_delay_days must be 0 for a monthly plan (use scheduled for a later first charge)" })
  }
}

/** Body of `POST /admin/product-variants/:id/tw-subscription-plans`. */
export const AdminCreateTwSubscriptionPlan = z
  .strictObject({
    ...planFields,
    interval_months: planFields.interval_months.default(1),
    periods: planFields.periods.default(null),
    first_charge_delay_days: planFields.first_charge_delay_days.default(0),
    active: planFields.active.default(true),
  })
  .superRefine(monthlyRules)
export type AdminCreateTwSubscriptionPlanType = z.infer<typeof AdminCreateTwSubscriptionPlan>

/** Body of `POST /admin/tw-subscription-plans/:id`: any field but the variant. */
export const AdminUpdateTwSubscriptionPlan = z.strictObject(planFields).partial().superRefine(monthlyRules)
export type AdminUpdateTwSubscriptionPlanType = z.infer<typeof AdminUpdateTwSubscriptionPlan>

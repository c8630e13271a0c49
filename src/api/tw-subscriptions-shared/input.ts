import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { invoiceInfoSchema } from "../../lib/hosted"
import { describeIssues } from "../../lib/http/validate"
import { SUBSCRIPTION_STATUSES } from "../../modules/tw-subscription/models/subscription"
import { storefrontPath } from "../../providers/core/options"

/** Bodies and queries of the subscription routes (docs/subscriptions.md), checked with zod. */

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value ?? {})
  if (!result.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid ${what}: ${describeIssues(result.error.issues)}`)
  }
  return result.data
}

const count = (max: number, fallback: number) => z.coerce.number().int().min(0).max(max).default(fallback)

export const listQuerySchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  customer_id: z.string().min(1).optional(),
  limit: count(100, 20).pipe(z.number().min(1)),
  offset: count(1_000_000, 0),
})

export const storeListQuerySchema = listQuerySchema.omit({ customer_id: true })

export const cancelBodySchema = z.strictObject({ reason: z.string().trim().min(1).max(200) })
export const storeCancelBodySchema = z.strictObject({ reason: z.string().trim().min(1).max(200).optional() })

export const checkoutBodySchema = z.strictObject({
  plan_id: z.string().startsWith("twplan_", "must be a plan id (twplan_…)"),
  provider_id: z.string().startsWith("pp_hosted-checkout_", "must be a hosted-checkout provider id").optional(),
  return_path: storefrontPath.optional(),
  /** The shopper's e-invoice choice, as for a one-time hosted payment (docs/providers.md). */
  invoice: invoiceInfoSchema.optional(),
  /** Subscribe with this saved card of the customer's (docs/saved-cards.md): no page, charged when the cart is completed. */
  saved_card_id: z.string().startsWith("twcard_", "must be a saved card id (twcard_…)").max(100).optional(),
})

const planFields = {
  title: z.string().trim().min(1).max(100),
  kind: z.enum(["monthly", "scheduled"]),
  interval_months: z.int().min(1).max(12).default(1),
  periods: z.int().min(2).max(999).nullable().default(null),
  first_charge_delay_days: z.int().min(0).max(364).default(0),
  active: z.boolean().default(true),
}

/** The service's rules (spec 4.2, 4.3): monthly charges every month from checkout. */
const monthlyRules = (plan: { kind?: string; interval_months?: number; first_charge_delay_days?: number }, ctx: z.RefinementCtx) => {
  if (plan.kind === "monthly" && plan.interval_months !== undefined && plan.interval_months !== 1) {
    ctx.addIssue({ code: "custom", path: ["interval_months"], message: "must be 1 for a monthly plan (use scheduled for other intervals)" })
  }
  if (plan.kind === "monthly" && plan.first_charge_delay_days) {
    ctx.addIssue({ code: "custom", path: ["first_charge_delay_days"], message: "must be 0 for a monthly plan (use scheduled for a later first charge)" })
  }
}

export const createPlanSchema = z.strictObject(planFields).superRefine(monthlyRules)
export const updatePlanSchema = z
  .strictObject({
    title: planFields.title.optional(),
    kind: planFields.kind.optional(),
    interval_months: z.int().min(1).max(12).optional(),
    periods: z.int().min(2).max(999).nullable().optional(),
    first_charge_delay_days: z.int().min(0).max(364).optional(),
    active: z.boolean().optional(),
  })
  .superRefine(monthlyRules)

export const plansQuerySchema = z
  .object({ product_id: z.string().min(1).optional(), variant_id: z.string().min(1).optional() })
  .refine((q) => !!q.product_id !== !!q.variant_id, { message: "give exactly one of product_id and variant_id" })

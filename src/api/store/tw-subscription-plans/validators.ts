import { z } from "@medusajs/framework/zod"

/** Query of `GET /store/tw-subscription-plans`: the plans of a product, or of one variant. */
export const StoreListTwSubscriptionPlans = z
  .object({ product_id: z.string().min(1).optional(), variant_id: z.string().min(1).optional() })
  .refine((q) => !!q.product_id !== !!q.variant_id, { message: "give exactly one of product_id and variant_id" })
export type StoreListTwSubscriptionPlansType = z.infer<typeof StoreListTwSubscriptionPlans>

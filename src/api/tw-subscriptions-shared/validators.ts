import { z } from "@medusajs/framework/zod"
import { createFindParams } from "@medusajs/medusa/api/utils/validators"
import { SUBSCRIPTION_STATUSES } from "../../modules/tw-subscription/models/subscription"

/** Core's list parameters, newest first, with this plugin's page bounds; the store's and the admin's lists extend it. */
export const SubscriptionListParams = createFindParams({ limit: 20, offset: 0, order: "-created_at" }).extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
})

/** The query config given with it: `order` may name only these fields. */
export const subscriptionListConfig = {
  isList: true,
  defaultLimit: 20,
  allowed: ["created_at", "updated_at", "next_charge_at", "status"],
}

export const cancelReason = z.string().trim().min(1).max(200)

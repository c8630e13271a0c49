import { z } from "@medusajs/framework/zod"
import { cancelReason, SubscriptionListParams } from "../../tw-subscriptions-shared/validators"

/** Query of `GET /admin/tw-subscriptions`. */
export const AdminListTwSubscriptions = SubscriptionListParams.extend({ customer_id: z.string().min(1).optional() })
export type AdminListTwSubscriptionsType = z.infer<typeof AdminListTwSubscriptions>

/** Body of `POST /admin/tw-subscriptions/:id/cancel`: the merchant gives a reason. */
export const AdminCancelTwSubscription = z.strictObject({ reason: cancelReason })
export type AdminCancelTwSubscriptionType = z.infer<typeof AdminCancelTwSubscription>

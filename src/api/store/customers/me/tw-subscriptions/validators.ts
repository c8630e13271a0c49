import { z } from "@medusajs/framework/zod"
import { cancelReason, SubscriptionListParams } from "../../../../tw-subscriptions-shared/validators"

/** Query of `GET /store/customers/me/tw-subscriptions`: the customer is the logged-in one, never a parameter. */
export const StoreListTwSubscriptions = SubscriptionListParams
export type StoreListTwSubscriptionsType = z.infer<typeof StoreListTwSubscriptions>

/** Body of `POST /store/customers/me/tw-subscriptions/:id/cancel`: the reason is the customer's to give or not. */
export const StoreCancelTwSubscription = z.strictObject({ reason: cancelReason.optional() })
export type StoreCancelTwSubscriptionType = z.infer<typeof StoreCancelTwSubscription>

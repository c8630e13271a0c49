import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import { storeCall } from "./store-answer.js"

/** A plan a product variant is offered on as a subscription (`GET /store/tw-subscription-plans`). */
export interface SubscriptionPlan {
  id: string
  variant_id: string
  title: string
  kind: "monthly" | "scheduled"
  interval_months: number
  /** Number of charges; null: until cancelled. */
  periods: number | null
  first_charge_delay_days: number
  active: boolean
  created_at: string
  updated_at: string
}

/** The active plans of a product's variants, or of one variant. */
export async function listSubscriptionPlans(sdk: Medusa, of: { productId: string } | { variantId: string }, headers?: ClientHeaders): Promise<SubscriptionPlan[]> {
  const query = "productId" in of ? { product_id: of.productId } : { variant_id: of.variantId }
  return (await storeCall(() => sdk.client.fetch<{ plans: SubscriptionPlan[] }>("/store/tw-subscription-plans", { query, headers }))).plans
}

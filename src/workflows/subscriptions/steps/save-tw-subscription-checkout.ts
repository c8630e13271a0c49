import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { CheckoutTerms } from "./validate-tw-subscription-checkout"

/** The fields a new checkout of the same cart changes on its pending row: what the compensation puts back. */
type Previous = Pick<Awaited<ReturnType<ReturnType<typeof subscriptionModule>["retrieveTwSubscription"]>>, "id" | "kind" | "interval_months" | "periods_total" | "start_date" | "amount" | "plan_id" | "provider_key">

type Saved = { id: string; created: boolean }
type SaveUndo = { created: string } | { previous: Previous }

/**
 * One subscription per cart: a new checkout of the same cart (a changed plan,
 * an expired page) reuses its pending row. Undone: a created row is deleted,
 * a reused one gets its terms back.
 */
export const saveSubscriptionStep = createStep(
  "save-tw-subscription-checkout",
  async (checkout: CheckoutTerms, { container }) => {
    const module = subscriptionModule(container)
    const [existing] = await module.listTwSubscriptions({ cart_id: checkout.cart_id, status: "pending" }, { take: 1 })
    if (existing) {
      const previous: Previous = {
        id: existing.id,
        kind: existing.kind,
        interval_months: existing.interval_months,
        periods_total: existing.periods_total,
        start_date: existing.start_date,
        amount: existing.amount,
        plan_id: existing.plan_id,
        provider_key: existing.provider_key,
      }
      await module.updateTwSubscriptions({ id: existing.id, ...checkout.terms, provider_key: checkout.provider_key })
      return new StepResponse<Saved, SaveUndo>({ id: existing.id, created: false }, { previous })
    }
    const row = await module.createTwSubscriptions({
      ...checkout.terms,
      status: "pending",
      customer_id: checkout.customer_id,
      cart_id: checkout.cart_id,
      provider_key: checkout.provider_key,
      currency_code: "twd",
    })
    return new StepResponse<Saved, SaveUndo>({ id: row.id, created: true }, { created: row.id })
  },
  async (undo, { container }) => {
    if (undo && "created" in undo) {
      await subscriptionModule(container).deleteTwSubscriptions(undo.created)
    } else if (undo) {
      await subscriptionModule(container).updateTwSubscriptions(undo.previous)
    }
  }
)

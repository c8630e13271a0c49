"use client"
import { useEffect, useState } from "react"
import { listSubscriptionPlans, type SubscriptionPlan } from "../core/subscription-plans.js"
import { useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import { PlanPicker } from "./plan-picker.js"

export interface ProductSubscribeProps {
  productId: string
  /**
   * Starts a subscription on the chosen plan: the storefront puts the plan's variant (`plan.variant_id`)
   * alone in a new cart of the logged-in customer, with the plan's id in the cart's metadata under
   * `SUBSCRIPTION_PLAN_METADATA_KEY`, and opens its checkout. A server action, in the official starter.
   */
  onSubscribe(plan: SubscriptionPlan): unknown
  className?: string
}

/**
 * A product page's subscription offer: the plans of the product's variants
 * (`PlanPicker`) and "Subscribe". Shows nothing for a product without plans.
 */
export function ProductSubscribe({ productId, onSubscribe, className }: ProductSubscribeProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const [plans, setPlans] = useState<SubscriptionPlan[] | undefined>(undefined)
  const [chosen, setChosen] = useState<SubscriptionPlan | undefined>(undefined)
  const { busy, error, run } = useBusyAction()

  useEffect(() => {
    let current = true
    // The offer is extra to the product page: a listing that fails offers nothing.
    listSubscriptionPlans(sdk, { productId }, headers).then(
      (found) => {
        if (current) {
          setPlans(found)
          setChosen(found[0])
        }
      },
      () => current && setPlans([])
    )
    return () => {
      current = false
    }
  }, [sdk, headers, productId])

  if (!plans?.length) {
    return null
  }
  const subscribe = () => chosen && void run(async () => onSubscribe(chosen))
  return (
    <div className={className} data-testid="product-subscribe">
      <PlanPicker of={{ productId }} plans={plans} value={chosen?.id} onChange={setChosen} />
      <button type="button" className={classNames.button} onClick={subscribe} disabled={busy || !chosen} aria-busy={busy} data-testid="product-subscribe-button">
        {busy ? text("busy") : text("subscribe")}
      </button>
      <ErrorMessage error={error} />
    </div>
  )
}

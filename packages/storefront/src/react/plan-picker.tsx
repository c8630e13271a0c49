"use client"
import { useEffect, useId, useState } from "react"
import { listSubscriptionPlans, type SubscriptionPlan } from "../core/subscription-plans.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"

export interface PlanPickerProps {
  /** The plans of a product's variants, or of one variant. */
  of: { productId: string } | { variantId: string }
  /** The plans to offer, when the caller has listed them already (nothing is listed then). */
  plans?: SubscriptionPlan[]
  value?: string
  onChange(plan: SubscriptionPlan): void
  className?: string
}

/** The active subscription plans as radios: each with its title, interval and number of charges. */
export function PlanPicker({ of, plans: given, value, onChange, className }: PlanPickerProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const id = useId()
  const [listed, setPlans] = useState<SubscriptionPlan[] | undefined>(undefined)
  const plans = given ?? listed
  const [error, setError] = useState<unknown>(undefined)
  const key = "productId" in of ? `p:${of.productId}` : `v:${of.variantId}`

  useEffect(() => {
    if (given) {
      return
    }
    let current = true
    listSubscriptionPlans(sdk, of, headers).then(
      (found) => current && setPlans(found),
      (failure: unknown) => current && setError(failure)
    )
    return () => {
      current = false
    }
    // `of` is compared by its key, so an inline object does not reload the plans.
  }, [sdk, headers, key, given])

  const termsOf = (plan: SubscriptionPlan) =>
    `${plan.interval_months === 1 ? text("plan_every_month") : text("plan_every_months", { months: String(plan.interval_months) })}, ${
      plan.periods === null ? text("plan_until_cancelled") : text("plan_periods", { periods: String(plan.periods) })
    }`

  return (
    <fieldset className={className} data-testid="plan-picker" aria-busy={plans === undefined && error === undefined}>
      <legend className={classNames.title}>{text("plan_picker_legend")}</legend>
      {plans === undefined && error === undefined ? <p role="status">{text("loading")}</p> : null}
      {plans?.length === 0 ? <p>{text("plans_empty")}</p> : null}
      {plans?.map((plan) => (
        <div key={plan.id} className={classNames.option}>
          <input type="radio" className={classNames.radio} id={`${id}-${plan.id}`} name={`${id}-plan`} value={plan.id} checked={value === plan.id} onChange={() => onChange(plan)} />
          <label htmlFor={`${id}-${plan.id}`} className={classNames.optionLabel}>
            {plan.title} ({termsOf(plan)})
          </label>
        </div>
      ))}
      <ErrorMessage error={error} />
    </fieldset>
  )
}

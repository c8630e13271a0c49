import type { SubscriptionPlan } from "medusa-payment-tw-storefront"
import { formatMoney } from "./money"

/** How the storefront describes a plan's terms; the kit reads the plans (`listSubscriptionPlans`). */

interface Terms {
  interval_months: number
  /** `periods` of a plan, `periods_total` of a subscription. */
  periods: number | null
}

/** "every month" / "every 3 months". */
export const everyInterval = (intervalMonths: number) => (intervalMonths === 1 ? "every month" : `every ${intervalMonths} months`)

/** "12 months" / "6 times" / "until you cancel". */
export function howLong(terms: Terms): string {
  if (terms.periods === null) {
    return "until you cancel"
  }
  return terms.interval_months === 1 ? `${terms.periods} months` : `${terms.periods} times`
}

/** "NT$1,000 every month, 12 months". */
export function describeTerms(terms: Terms, amount: number | null | undefined, currencyCode = "twd"): string {
  return `${formatMoney(amount, currencyCode)} ${everyInterval(terms.interval_months)}, ${howLong(terms)}`
}

/** The plan's terms for a shopper, from a price (the first charge's day and later delays included). */
export function describePlan(plan: SubscriptionPlan, amount: number | null | undefined, currencyCode = "twd"): string {
  const terms = describeTerms({ interval_months: plan.interval_months, periods: plan.periods }, amount, currencyCode)
  const first = plan.first_charge_delay_days > 0 ? `first charge ${plan.first_charge_delay_days} days after you subscribe` : "first charge when you subscribe"
  return `${terms}; ${first}`
}

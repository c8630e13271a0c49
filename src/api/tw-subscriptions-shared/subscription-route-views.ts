import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../modules/tw-subscription"
import { SHOPPER_ERROR } from "../../providers/core/shopper-error-codes"
import type { AdminSubscriptionDetailView, PeriodView, PlanView, SubscriptionDetailView, SubscriptionListItem, SubscriptionView } from "../../shared/subscription-views"

/** What the routes answer: the objects of docs/subscriptions.md, typed in src/shared for the admin and the storefront too. */

export const subscriptions = (container: MedusaContainer) => container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)

type Row = Awaited<ReturnType<TwSubscriptionModuleService["retrieveTwSubscription"]>>
type PeriodRow = Awaited<ReturnType<TwSubscriptionModuleService["retrieveTwSubscriptionPeriod"]>>
type PlanRow = Awaited<ReturnType<TwSubscriptionModuleService["retrieveTwSubscriptionPlan"]>>

export function subscriptionView(row: Row): SubscriptionView<Date> {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    interval_months: row.interval_months,
    amount: row.amount,
    currency_code: row.currency_code,
    periods_total: row.periods_total,
    periods_charged: row.periods_charged,
    next_charge_at: row.next_charge_at,
    start_date: row.start_date,
    service_subscription_id: row.service_subscription_id,
    card_last4: row.card_last4,
    customer_id: row.customer_id,
    plan_id: row.plan_id,
    first_order_id: row.first_order_id,
    cancel_reason: row.cancel_reason,
    cancelled_at: row.cancelled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * A page of subscriptions, each with its plan's title, in one query for the
 * page's plans; a deleted plan still names the subscriptions that started on it.
 */
export async function subscriptionListViews(container: MedusaContainer, rows: Row[]): Promise<SubscriptionListItem<Date>[]> {
  const planIds = [...new Set(rows.map((row) => row.plan_id).filter((id): id is string => !!id))]
  const plans = planIds.length ? await subscriptions(container).listTwSubscriptionPlans({ id: planIds }, { take: null, select: ["id", "title"], withDeleted: true }) : []
  const titles = new Map(plans.map((plan) => [plan.id, plan.title]))
  return rows.map((row) => ({ ...subscriptionView(row), plan_title: (row.plan_id && titles.get(row.plan_id)) ?? null }))
}

export function periodView(row: PeriodRow): PeriodView<Date> {
  return {
    period: row.period,
    status: row.status,
    transaction_id: row.transaction_id,
    transaction_hid: row.transaction_hid,
    amount: row.amount,
    // Named once its payment is recorded: a renewal order half-way is not shown as the period's order.
    order_id: row.order_paid ? row.order_id : null,
    paid_at: row.paid_at,
    attempts: row.attempts,
  }
}

export function planView(row: PlanRow): PlanView<Date> {
  return {
    id: row.id,
    variant_id: row.variant_id,
    title: row.title,
    kind: row.kind,
    interval_months: row.interval_months,
    periods: row.periods,
    first_charge_delay_days: row.first_charge_delay_days,
    active: row.active,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * One subscription with its periods; `customerId` restricts it to that
 * customer's own (any other id is "not found", never "forbidden": ids do not
 * leak). Both name the plan (what the shop sells, public on the product page);
 * the admin view adds the customer.
 */
export async function subscriptionDetail(container: MedusaContainer, id: string, options: { admin: true }): Promise<AdminSubscriptionDetailView<Date>>
export async function subscriptionDetail(container: MedusaContainer, id: string, options?: { customerId?: string }): Promise<SubscriptionDetailView<Date>>
export async function subscriptionDetail(container: MedusaContainer, id: string, options: { customerId?: string; admin?: boolean } = {}): Promise<SubscriptionDetailView<Date> | AdminSubscriptionDetailView<Date>> {
  const module = subscriptions(container)
  const [row] = await module.listTwSubscriptions({ id, ...(options.customerId ? { customer_id: options.customerId } : {}) }, { take: 1 })
  if (!row) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Subscription ${id} was not found.`, SHOPPER_ERROR.subscription_not_found)
  }
  const periods = await module.listTwSubscriptionPeriods({ subscription_id: row.id }, { take: null, order: { period: "ASC" } })
  const [plan] = row.plan_id ? await module.listTwSubscriptionPlans({ id: row.plan_id }, { take: 1, withDeleted: true }) : []
  const view: SubscriptionDetailView<Date> = { ...subscriptionView(row), periods: periods.map(periodView), plan: plan ? planView(plan) : null }
  if (!options.admin) {
    return view
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: customers } = await query.graph({ entity: "customer", fields: ["id", "email", "first_name", "last_name"], filters: { id: row.customer_id } })
  return { ...view, customer: customers[0] ?? null }
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PeriodState, SubscriptionState } from "../../../modules/tw-subscription/service"
import type { SubscriptionStatus } from "../../../modules/tw-subscription/models/subscription"
import type { ServiceRead } from "../../../subscriptions/service-read"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import { type FirstOrderState, type KeptSubscription, serviceStateRecord, type SubscriptionObservation } from "../decisions/subscription-state"
import type { SubscriptionRow } from "./load-tw-subscription"

export interface RecordSubscriptionStateInput {
  subscription: SubscriptionRow
  read: ServiceRead
  hasCheckout: boolean
  observed: SubscriptionObservation
  firstOrder: FirstOrderState | null
  current: Pick<KeptSubscription, "status" | "cancelled_at" | "cancel_reason">
}

export interface RecordedSubscriptionState {
  status: SubscriptionStatus
  /** When the store ended the subscription, if it did (ISO). */
  endedAt: string | null
  cancelReason: string | null
  /** The periods as now stored. */
  periods: Array<{ id: string; period: number; order_id: string | null; order_paid: boolean }>
}

interface Previous {
  subscription: SubscriptionState
  periods: Array<PeriodState & { id: string }>
  /** Each period's order as this step left it. */
  recorded: RecordedSubscriptionState["periods"]
}

/**
 * The subscription and its periods as the read shows them, in one
 * transaction (`recordServiceState`). Undone, if a later step fails, by
 * putting back the row and periods as they were: no half-written period.
 */
export const recordTwSubscriptionStateStep = createStep(
  "record-tw-subscription-state",
  async ({ subscription, read, hasCheckout, observed, firstOrder, current }: RecordSubscriptionStateInput, { container }) => {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const module = subscriptionModule(container)
    for (const hid of observed.ignored) {
      logger.error(`medusa-payment-tw: transaction ${hid} of subscription ${subscription.id} is not of its amount (${subscription.amount} TWD); ignored`)
    }
    const record = serviceStateRecord(subscription, { hid: read.hid, hasCheckout }, observed, firstOrder ?? undefined, current, new Date())
    if (record.endsNow) {
      logger.warn(`medusa-payment-tw: subscription ${subscription.id} ended: ${record.endsNow}`)
    }
    const before = await module.retrieveTwSubscription(subscription.id)
    const periodsBefore = await module.listTwSubscriptionPeriods({ subscription_id: subscription.id }, { take: null })
    const previous: Omit<Previous, "recorded"> = {
      subscription: {
        id: before.id,
        status: before.status,
        service_subscription_id: before.service_subscription_id,
        periods_charged: before.periods_charged,
        next_charge_at: before.next_charge_at,
        card_last4: before.card_last4,
        first_order_id: before.first_order_id,
        cancelled_at: before.cancelled_at,
        cancel_reason: before.cancel_reason,
        synced_at: before.synced_at,
      },
      periods: periodsBefore.map((p) => ({
        id: p.id,
        period: p.period,
        status: p.status,
        transaction_id: p.transaction_id,
        transaction_hid: p.transaction_hid,
        amount: p.amount,
        attempts: p.attempts,
        paid_at: p.paid_at,
        order_id: p.order_id,
        order_paid: p.order_paid,
      })),
    }
    await module.recordServiceState(record.subscription, record.periods)
    const stored = await module.listTwSubscriptionPeriods({ subscription_id: subscription.id }, { take: null, select: ["id", "period", "order_id", "order_paid"] })
    const recorded: RecordedSubscriptionState = {
      status: record.subscription.status ?? subscription.status,
      endedAt: record.endedAt?.toISOString() ?? null,
      cancelReason: record.cancelReason ?? null,
      periods: stored.map((p) => ({ id: p.id, period: p.period, order_id: p.order_id, order_paid: p.order_paid })),
    }
    return new StepResponse(recorded, { ...previous, recorded: recorded.periods })
  },
  async (previous, { container }) => {
    if (!previous) {
      return
    }
    const module = subscriptionModule(container)
    // A period's order set after this step (a renewal run, which stands or undoes itself) is not this step's
    // to put back: put back, the next run would record that order again and its hooks would run twice.
    const asRecorded = new Map(previous.recorded.map((p) => [p.id, p]))
    const now = await module.listTwSubscriptionPeriods({ subscription_id: previous.subscription.id }, { take: null, select: ["id", "order_id", "order_paid"] })
    const ordered = new Set(
      now.filter((p) => p.order_id && (p.order_id !== asRecorded.get(p.id)?.order_id || p.order_paid !== asRecorded.get(p.id)?.order_paid)).map((p) => p.id)
    )
    const periods = previous.periods.map(({ order_id, order_paid, ...period }) => (ordered.has(period.id) ? period : { ...period, order_id, order_paid }))
    await module.restoreServiceState(previous.subscription, periods, [...ordered])
  }
)

import type { Context, InferTypeOf } from "@medusajs/framework/types"
import { InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import TwSubscriptionPeriod from "./models/period"
import TwSubscriptionPlan from "./models/plan"
import TwSubscription from "./models/subscription"

type Subscription = InferTypeOf<typeof TwSubscription>
type Period = InferTypeOf<typeof TwSubscriptionPeriod>

/** What one read of the service changes on a subscription's row. */
export type SubscriptionState = Partial<Omit<Subscription, "periods" | "created_at" | "updated_at" | "deleted_at">> & { id: string }
/** A period as one read of the service shows it. */
export type PeriodState = Partial<Omit<Period, "subscription" | "created_at" | "updated_at" | "deleted_at">> & { period: number }

/**
 * Plans, subscriptions and their periods. Besides the generated data
 * methods, only `recordServiceState` and its undo: what a subscription does
 * lives in the workflows, which read the service.
 */
export default class TwSubscriptionModuleService extends MedusaService({
  TwSubscriptionPlan,
  TwSubscription,
  TwSubscriptionPeriod,
}) {
  /**
   * A subscription and its periods as one read of the service left them, in
   * one transaction, so no reader sees the subscription retrying before its
   * failed period, or a period without the subscription's count.
   */
  @InjectTransactionManager()
  async recordServiceState(subscription: SubscriptionState, periods: PeriodState[], @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.updateTwSubscriptions(subscription, sharedContext)
    const existing = new Map((await this.listTwSubscriptionPeriods({ subscription_id: subscription.id }, { take: null, select: ["id", "period"] }, sharedContext)).map((p) => [p.period, p.id]))
    const updates = periods.filter((p) => existing.has(p.period)).map((p) => ({ ...p, id: existing.get(p.period)! }))
    const creates = periods.filter((p) => !existing.has(p.period)).map((p) => ({ ...p, subscription_id: subscription.id }))
    if (updates.length) {
      await this.updateTwSubscriptionPeriods(updates, sharedContext)
    }
    if (creates.length) {
      await this.createTwSubscriptionPeriods(creates, sharedContext)
    }
  }

  /**
   * Undoes a `recordServiceState` whose workflow failed further on, in one
   * transaction: the row's fields as they were, the periods as they were,
   * and no period that was not there before.
   */
  @InjectTransactionManager()
  async restoreServiceState(
    subscription: SubscriptionState,
    periods: Array<PeriodState & { id: string }>,
    /** Periods to keep even if added since (an order stands on them). */
    keep: string[] = [],
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    await this.updateTwSubscriptions(subscription, sharedContext)
    const before = new Set([...periods.map((p) => p.id), ...keep])
    const now = await this.listTwSubscriptionPeriods({ subscription_id: subscription.id }, { take: null, select: ["id"] }, sharedContext)
    const added = now.filter((p) => !before.has(p.id)).map((p) => p.id)
    if (added.length) {
      await this.deleteTwSubscriptionPeriods(added, sharedContext)
    }
    if (periods.length) {
      await this.updateTwSubscriptionPeriods(periods, sharedContext)
    }
  }
}

import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Subscription } from "../../../lib/hosted"
import { sessionSubscription } from "../../../providers/hosted-checkout/public"
import { CANCELLABLE_SUBSCRIPTION_STATUSES } from "../../../shared/statuses"
import { hostedApi } from "../hosted-api"
import { fittingInServiceList, readService, type ServiceRead } from "../service-read"
import { subscriptionModule } from "../subscription-module"
import { CHECKOUT_OPEN_MS } from "../subscription-state"
import type { SubscriptionRow } from "./load-subscription"

export interface ReadSubscriptionServiceInput {
  subscription: SubscriptionRow
  checkout: { found: boolean; data: Record<string, unknown> }
  /** An S number a notification named (a hint, checked against the read). */
  hint?: string
  findNumber?: boolean
}

/**
 * One fresh read of the service: the checkout's transactions and the
 * subscription. A scheduled checkout's create call answered its S number;
 * a monthly one's comes with a notification (the hint). An ended checkout
 * (or one being cancelled) whose notifications were all lost finds its S
 * number in the service's list; when several fit an ended checkout and
 * only ended ones of the store, they are all strays (`ServiceRead.strays`).
 * Reads only: nothing to undo.
 */
export const readTwSubscriptionServiceStep = createStep(
  "read-tw-subscription-service",
  async ({ subscription, checkout, hint, findNumber }: ReadSubscriptionServiceInput, { container }) => {
    const api = hostedApi(container, subscription.provider_key)
    const known = { ...subscription, service_subscription_id: subscription.service_subscription_id ?? sessionSubscription(checkout.data)?.hid ?? null }
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    let read = await readService(api, known, hint, logger)
    if (!read.hid && (subscription.status === "cancelled" || !checkout.found || findNumber)) {
      const module = subscriptionModule(container)
      const heldElsewhere = async (hid: string) => (await module.listTwSubscriptions({ service_subscription_id: hid, id: { $ne: subscription.id } }, { take: 1, select: ["id"] })).length > 0
      const fitting = await fittingInServiceList(api, known, read.transactions, heldElsewhere, logger)
      if (fitting.length === 1) {
        read = { ...read, hid: fitting[0].id, subscription: await api.client.subscriptions.retrieve(fitting[0].id) }
      } else if (fitting.length > 1 && subscription.status === "cancelled" && !(await liveCheckoutCouldOwn(module, subscription, fitting))) {
        read = { ...read, strays: fitting.map((candidate) => candidate.id) }
      }
    }
    return new StepResponse<ServiceRead>(read)
  }
)

/**
 * Whether a checkout of the store that has not ended, with no S number and the same terms, opened
 * early enough to have started one of `candidates`: then one of them may be its own, and none is cancelled.
 */
async function liveCheckoutCouldOwn(module: ReturnType<typeof subscriptionModule>, subscription: SubscriptionRow, candidates: Subscription[]): Promise<boolean> {
  const starts = candidates.map((candidate) => Date.parse(candidate.startedAt ?? ""))
  const [earliest, latest] = [Math.min(...starts), Math.max(...starts)]
  if (Number.isNaN(earliest) || Number.isNaN(latest)) {
    return true
  }
  const live = await module.listTwSubscriptions(
    {
      id: { $ne: subscription.id },
      provider_key: subscription.provider_key,
      service_subscription_id: null,
      status: [...CANCELLABLE_SUBSCRIPTION_STATUSES],
      amount: subscription.amount,
      interval_months: subscription.interval_months,
      periods_total: subscription.periods_total,
      created_at: { $gte: new Date(earliest - CHECKOUT_OPEN_MS), $lte: new Date(latest) },
    },
    { take: 1, select: ["id"] }
  )
  return live.length > 0
}

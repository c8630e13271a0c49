import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Subscription, Transaction } from "../../../lib/hosted"
import { sessionSubscription } from "../../../providers/hosted-checkout/public"
import { isCancellable } from "../../../shared/statuses"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { checkoutTransactions, firstPaidAt, fittingInServiceList, nearestOwned, readService, type ServiceRead } from "../../../subscriptions/service-read"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import { CHECKOUT_OPEN_MS } from "../decisions/subscription-state"
import type { SubscriptionRow } from "./load-tw-subscription"

/** Other unnumbered checkouts whose payments are read to tell fitting subscriptions apart, at most. */
const PEERS_READ_AT_MOST = 20

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
 * number in the service's list. When several fit, the one that started
 * nearest its first payment is its own if no other unnumbered checkout of
 * the store was paid nearer to that start; when none can be told and only
 * ended checkouts of the store could own them, they are all strays
 * (`ServiceRead.strays`).
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
      const { own, strays } = fitting.length > 1 ? await tellApart(api, module, subscription, read.transactions, fitting) : { own: fitting[0], strays: undefined }
      if (own) {
        read = { ...read, hid: own.id, subscription: await api.client.subscriptions.retrieve(own.id) }
      } else if (strays) {
        read = { ...read, strays }
      }
    }
    return new StepResponse<ServiceRead>(read)
  }
)

/**
 * Several subscriptions fit the checkout: its own, by whose first payment each started nearest
 * (`nearestOwned`, reading the payments of the store's other unnumbered checkouts); or, for an ended
 * checkout none can be told apart for, all of them as strays when only ended checkouts could own them.
 */
async function tellApart(
  api: ReturnType<typeof hostedApi>,
  module: ReturnType<typeof subscriptionModule>,
  subscription: SubscriptionRow,
  transactions: Transaction[],
  fitting: Subscription[]
): Promise<{ own?: Subscription; strays?: string[] }> {
  const peers = await unnumberedPeers(module, subscription, fitting)
  if (peers.length > PEERS_READ_AT_MOST) {
    // Too many to read each one's payments: nothing can be told apart.
    return {}
  }
  const firstPaid = new Map([[subscription.id, firstPaidAt(transactions)]])
  for (const peer of peers) {
    firstPaid.set(peer.id, firstPaidAt(await checkoutTransactions(api, peer.payment_session_id)))
  }
  const own = nearestOwned(subscription.id, fitting, firstPaid)
  if (own) {
    return { own }
  }
  const onlyEnded = subscription.status === "cancelled" && !peers.some((peer) => isCancellable(peer.status))
  return onlyEnded ? { strays: fitting.map((candidate) => candidate.id) } : {}
}

/**
 * The store's other checkouts with no S number and the same terms, opened early enough to have started
 * one of `candidates`: the ones a fitting subscription may belong to instead.
 */
async function unnumberedPeers(module: ReturnType<typeof subscriptionModule>, subscription: SubscriptionRow, candidates: Subscription[]) {
  const starts = candidates.map((candidate) => Date.parse(candidate.startedAt ?? "")).filter((t) => !Number.isNaN(t))
  return module.listTwSubscriptions(
    {
      id: { $ne: subscription.id },
      provider_key: subscription.provider_key,
      service_subscription_id: null,
      payment_session_id: { $ne: null },
      amount: subscription.amount,
      interval_months: subscription.interval_months,
      periods_total: subscription.periods_total,
      ...(starts.length ? { created_at: { $gte: new Date(Math.min(...starts) - CHECKOUT_OPEN_MS), $lte: new Date(Math.max(...starts)) } } : {}),
    },
    { take: PEERS_READ_AT_MOST + 1, select: ["id", "status", "payment_session_id"] }
  )
}

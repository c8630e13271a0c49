import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { sessionSubscription } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../hosted-api"
import { findInServiceList, readService, type ServiceRead } from "../service-read"
import { subscriptionModule } from "../subscription-module"
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
 * number in the service's list. Reads only: nothing to undo.
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
      const found = await findInServiceList(api, known, read.transactions, heldElsewhere, logger)
      if (found) {
        read = { ...read, hid: found.id, subscription: await api.client.subscriptions.retrieve(found.id) }
      }
    }
    return new StepResponse<ServiceRead>(read)
  }
)

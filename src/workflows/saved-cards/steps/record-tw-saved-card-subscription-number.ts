import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../../modules/tw-subscription"

/**
 * The service's S number of a subscription a saved card just started: renewals
 * and the cancel name it. Undone: the number the row had (none, normally); the
 * subscription's sync learns it again from the service, as after a lost answer.
 */
export const recordSubscriptionNumberStep = createStep(
  "record-tw-saved-card-subscription-number",
  async ({ subscription_id, hid }: { subscription_id: string; hid: string }, { container }) => {
    const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
    const before = await module.retrieveTwSubscription(subscription_id, { select: ["id", "service_subscription_id"] })
    await module.updateTwSubscriptions({ id: subscription_id, service_subscription_id: hid })
    return new StepResponse(undefined, { id: subscription_id, service_subscription_id: before.service_subscription_id ?? null })
  },
  async (previous, { container }) => {
    if (previous) {
      await container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE).updateTwSubscriptions(previous)
    }
  }
)

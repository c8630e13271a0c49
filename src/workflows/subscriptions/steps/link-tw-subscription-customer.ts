import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_SUBSCRIPTION_MODULE } from "../../../modules/tw-subscription"

/**
 * The customer's link to a new row. A step of its own rather than core's
 * `createRemoteLinkStep` run under `when`: that one's link was left behind
 * when a later step failed (workflow-compensation.spec.ts).
 */
export const linkCustomerStep = createStep(
  "link-tw-subscription-customer",
  async ({ customer_id, subscription_id }: { customer_id: string; subscription_id: string }, { container }) => {
    const link = { [Modules.CUSTOMER]: { customer_id }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_id: subscription_id } }
    await container.resolve(ContainerRegistrationKeys.LINK).create(link)
    return new StepResponse(undefined, link)
  },
  async (link, { container }) => {
    if (link) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss(link)
    }
  }
)

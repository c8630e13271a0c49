import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { returnOrphan } from "../../payments/steps/refund-tw-orphan-payment"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import type { ObservedPeriod } from "../decisions/subscription-state"
import { settlePeriod } from "../../../subscriptions/settle-period"

/**
 * Money of periods nothing in the store stands for (charged after the store
 * ended the subscription): returned, each from a fresh read, so never twice
 * (the read shows a refund). A refund is final: nothing to compensate.
 */
export const refundTwSubscriptionPeriodsStep = createStep(
  "refund-tw-subscription-periods",
  async ({ subscriptionId, providerKey, periods }: { subscriptionId: string; providerKey: string; periods: ObservedPeriod[] }, { container }) => {
    const failed: number[] = []
    for (const period of periods) {
      failed.push(
        ...(await settlePeriod(container, subscriptionId, period.period, () =>
          refundPeriod(container, providerKey, period.transactionId, `subscription ${subscriptionId} had ended in the store`)
        ))
      )
    }
    return new StepResponse({ failed })
  }
)

/** One period's money returned, from a fresh read: a read that shows it refunded (or unpaid) returns nothing. */
export async function refundPeriod(container: MedusaContainer, providerKey: string, transactionId: string, why: string): Promise<void> {
  const api = hostedApi(container, providerKey)
  const observation = await api.observe(transactionId)
  if (observation?.paid) {
    await returnOrphan(container, providerKey, api, observation, why)
  }
}

import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcileTwSubscriptions from "../jobs/reconcile-tw-subscriptions"

/**
 * Runs the subscription reconciliation (the job `medusa-payment-tw-reconcile-subscriptions`) once,
 * now, with the store's own configuration, also for providers whose scheduled runs are off:
 *
 *     npx medusa exec ./node_modules/medusa-payment-tw/.medusa/server/src/scripts/reconcile-tw-subscriptions-now.js
 *
 * (in this repository: `npx medusa exec ./src/scripts/reconcile-tw-subscriptions-now.ts`). Safe while the
 * store runs, and next to a scheduled run: each subscription is synced under its own lock.
 */
export default async function reconcileTwSubscriptionsNow({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  await reconcileTwSubscriptions(container, { force: true })
  logger.info("medusa-payment-tw: the subscription reconciliation ran (a run that found subscriptions to read logs how many above)")
}

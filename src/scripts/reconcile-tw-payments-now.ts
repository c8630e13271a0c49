import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcileTwPayments from "../jobs/reconcile-tw-payments"

/**
 * Runs the payment reconciliation (the job `medusa-payment-tw-reconcile`: the store's open sessions,
 * the service sweep, the saved-card charges whose outcome is unknown) once, now, with the store's own
 * configuration, also for providers whose scheduled runs are off:
 *
 *     npx medusa exec ./node_modules/medusa-payment-tw/.medusa/server/src/scripts/reconcile-tw-payments-now.js
 *
 * (in this repository: `npx medusa exec ./src/scripts/reconcile-tw-payments-now.ts`). Safe while the store
 * runs, and next to a scheduled run: the workflows lock what they change and find work already done.
 */
export default async function reconcileTwPaymentsNow({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  await reconcileTwPayments(container, { force: true })
  logger.info("medusa-payment-tw: the payment reconciliation ran (a run that found sessions or payments to read logs how many above)")
}

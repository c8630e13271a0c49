import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { checkTwPaymentsHealthWorkflow } from "../workflows/health/check-tw-payments-health"

/**
 * Evaluates the payments health rules every minute (`check-tw-payments-health`); a failure is logged and the
 * next tick tries again. It runs at second 30, half a minute after the payments job, so the orders a
 * reconciliation pass placed are judged at once rather than a tick later.
 */
export default async function paymentsHealthJob(container: MedusaContainer) {
  try {
    await checkTwPaymentsHealthWorkflow(container).run({ input: {} })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: checking the payments health failed: ${untrusted((error as Error).message, 300)}`)
  }
}

export const config = {
  name: "medusa-payment-tw-health",
  schedule: { cron: "30 * * * * *", concurrency: "forbid" as const },
}

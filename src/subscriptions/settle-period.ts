import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"

/**
 * Runs one action of a sync for one period. A failure is logged and
 * reported, never thrown: the state the read recorded stands, and the next
 * run (a notification, the reconciliation) tries the action again.
 */
export async function settlePeriod(container: MedusaContainer, subscriptionId: string, period: number, action: () => Promise<void>): Promise<number[]> {
  try {
    await action()
    return []
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).error(`medusa-payment-tw: period ${period} of subscription ${subscriptionId} not settled yet: ${untrusted((error as Error).message, 300)}`)
    return [period]
  }
}

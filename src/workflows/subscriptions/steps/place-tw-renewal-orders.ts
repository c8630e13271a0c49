import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Transaction } from "../../../lib/hosted"
import { cannotFulfil } from "../../payments/decisions/cannot-fulfil"
import { createTwRenewalOrderWorkflow, type RenewalSubscription } from "../create-tw-renewal-order"
import type { ObservedPeriod } from "../decisions/subscription-state"
import { refundPeriod } from "./refund-tw-subscription-periods"
import { settlePeriod } from "../../../subscriptions/settle-period"

export interface PlaceRenewalOrdersInput {
  subscription: RenewalSubscription
  firstOrderId: string
  /** The paid periods without their order, in order. */
  periods: ObservedPeriod[]
  /** The period rows as stored. */
  rows: Array<{ id: string; period: number }>
  /** The sync's read of the checkout's transactions. */
  transactions: Transaction[]
}

/**
 * One `create-tw-renewal-order` per paid period without its order (a
 * workflow cannot loop over a list it learns at run time). Each is undone on
 * its own when it fails, and the others still run; a period whose order the
 * store cannot place for want of stock is refunded. A paid order is never
 * undone, nor a refund, so this step has nothing to compensate.
 */
export const placeTwRenewalOrdersStep = createStep(
  "place-tw-renewal-orders",
  async ({ subscription, firstOrderId, periods, rows, transactions }: PlaceRenewalOrdersInput, { container }) => {
    const placed: string[] = []
    const failed: number[] = []
    for (const period of periods) {
      failed.push(
        ...(await settlePeriod(container, subscription.id, period.period, async () => {
          const row = rows.find((r) => r.period === period.period)
          const transaction = transactions.find((t) => t.id === period.transactionId)
          if (!row || !transaction) {
            throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Period ${period.period} has no row or transaction in this read.`)
          }
          // .run(), not runAsStep: one run per paid period, in a loop, each undone on its own; one out of stock is refunded, the others still run
          const { result, errors } = await createTwRenewalOrderWorkflow(container).run({
            input: { subscription, first_order_id: firstOrderId, period_id: row.id, period, transaction },
            throwOnError: false,
          })
          const error = errors?.[0]?.error as (Error & { code?: string; type?: string }) | undefined
          if (!error) {
            placed.push(result.order_id)
          } else if (cannotFulfil(error)) {
            // As for a one-time cart out of stock: the money goes back. The subscription goes on; a later
            // period is placed when there is stock again, and the refunded period is never tried again.
            await refundPeriod(container, subscription.provider_key, period.transactionId, `the store could not place the renewal order of period ${period.period} of subscription ${subscription.id} (${error.message})`)
          } else {
            throw error
          }
        }))
      )
    }
    return new StepResponse({ placed, failed })
  }
)

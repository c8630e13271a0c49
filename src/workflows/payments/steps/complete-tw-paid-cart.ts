import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import pLimit from "p-limit"
import { setTimeout as sleep } from "node:timers/promises"
import { markPipelinePlacing } from "../../../health/pipeline-placements"
import { untrusted } from "../../../lib/log"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import { cannotFulfil } from "../decisions/cannot-fulfil"
import { returnUnfulfillablePayment } from "../../../payments/return-unfulfillable-payment"

/**
 * Cart completions the pipeline runs at once in this process. A flash sale
 * delivers hundreds of payments within a second; completing them all at once
 * makes core's inventory locks time out (5 s) and every such failure rolls an
 * order back. A small bound keeps each wait short; across processes the
 * Redis event bus's worker concurrency bounds it.
 */
const completions = pLimit(Math.max(1, Number(process.env.TW_PAYMENT_COMPLETION_CONCURRENCY) || 2))

/** Waits before the 2nd and 3rd attempt of a completion that failed. */
export const RETRY_DELAYS_MS = [2_000, 8_000]

export interface CompletePaidCartInput {
  cartId: string
  sessionId: string
  provider: string
  observation: PaymentObservation
}

/** The order a cart was completed into, if any (core keeps the link in `order_cart`). */
export async function placedOrder(container: MedusaContainer, cartId: string): Promise<string | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return data[0]?.order_id
}

/**
 * Places the order of a paid (or code-issued) cart. Core's completion
 * authorizes the payment as its last step, and the provider answers from the
 * pipeline's sealed read: a completion that fails (a lock time-out, a
 * restart) leaves no payment behind to refund, and the cart stays payable.
 * It is tried again here, then by the delivery's retry and the
 * reconciliation job; an order placed meanwhile by the shopper's own
 * completion counts as done. Only when the store cannot fulfil the cart at
 * all (out of stock) is the money returned.
 */
export const completePaidCartStep = createStep("complete-tw-paid-cart", async ({ cartId, sessionId, provider, observation }: CompletePaidCartInput, { container }) => {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  // The completion's `orderCreated` hook leaves the order to this run's own placement record (process-tw-payment).
  markPipelinePlacing(cartId)
  let lastError = "unknown error"
  for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) {
      // Outside the bound: a cart waiting to try again holds no place another paid cart could use.
      await sleep(RETRY_DELAYS_MS[attempt - 1])
    }
    // .run(), not runAsStep: tried up to three times under a per-process bound, its errors classified (out of stock: the money returned), and core's cart lock taken, which a sub-workflow skips
    const { result, errors } = await completions(() => completeCartWorkflow(container).run({ input: { id: cartId }, throwOnError: false }))
    const placed = errors?.length ? await placedOrder(container, cartId) : (result as { id?: string } | undefined)?.id
    if (placed) {
      return new StepResponse(placed)
    }
    const error = errors?.[0]?.error as { message?: string; code?: string; type?: string } | undefined
    lastError = error?.message ?? lastError
    logger.warn(`medusa-payment-tw: completing paid cart ${cartId} failed (attempt ${attempt + 1}): ${untrusted(lastError, 200)}`)
    if (cannotFulfil(error)) {
      if (observation.paid) {
        await returnUnfulfillablePayment(container, { cartId, sessionId, provider, observation, why: `the store could not place the order of cart ${cartId} (${lastError})` })
      }
      return new StepResponse(undefined)
    }
  }
  throw new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Cart ${cartId} is paid but could not be completed (${lastError}); it stays payable and is completed again by the next delivery or reconciliation.`
  )
})

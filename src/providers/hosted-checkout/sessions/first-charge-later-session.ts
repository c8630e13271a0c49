import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { InvalidRequestError, NotFoundError } from "../../../lib/http"
import { toMedusaError } from "../../core/medusa-errors"
import type { HostedDeps } from "../provider-deps"

/**
 * A scheduled subscription whose first charge is on a later date (a page, or
 * a saved card's schedule): the card is bound and no transaction exists yet,
 * so the subscription, not a transaction, says where the session stands
 * (`awaitsFirstCharge` in `subscription-terms.ts` tells such a session).
 */

/**
 * The session status of a checkout whose first charge is on a later date:
 * once the card is bound (`trialing`) the order is placed awaiting payment.
 */
export async function firstChargeStatus(deps: Pick<HostedDeps, "client">, hid: string): Promise<PaymentSessionStatus> {
  let status: string
  try {
    status = (await deps.client.subscriptions.retrieve(hid)).status
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
      return PaymentSessionStatus.ERROR
    }
    throw toMedusaError(`Reading subscription ${hid}`, error)
  }
  switch (status) {
    case "pending":
      return PaymentSessionStatus.REQUIRES_MORE
    case "error":
      return PaymentSessionStatus.ERROR
    case "cancelled":
      return PaymentSessionStatus.CANCELED
    default:
      // trialing, active, retrying, completed: the card is bound; the period's own
      // transaction is recorded on the order by the subscription workflow.
      return PaymentSessionStatus.PENDING_AUTHORIZATION
  }
}

/** A bound card whose order will never be placed: the schedule is cancelled, so nothing is charged. */
export async function releaseSchedule(deps: Pick<HostedDeps, "client" | "logger">, hid: string): Promise<void> {
  try {
    const sub = await deps.client.subscriptions.retrieve(hid)
    if (sub.status === "trialing" || sub.status === "active" || sub.status === "retrying") {
      await deps.client.subscriptions.cancel(hid, { reason: "Checkout abandoned in the store" })
    }
  } catch (error) {
    deps.logger.warn(`hosted-checkout: could not cancel schedule ${hid} of a dropped session: ${(error as Error).message}`)
  }
}

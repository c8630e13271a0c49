import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { isDeepStrictEqual } from "node:util"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import { pluginProvider } from "../../../providers/plugin-providers"

interface Recorded {
  sessionId: string
  /** The session's data before the facts were written. */
  before: Record<string, unknown>
  /** The seal this run wrote: the mark that the data is still this run's. */
  mac: string
}

const macOf = (data: Record<string, unknown> | null | undefined) => (data?.attestation as { mac?: unknown } | null | undefined)?.mac

/**
 * Keeps what the read said on the session (the storefront shows it: a cvs
 * code, a failure) with the read sealed, so the completion that follows does
 * not read the service again. Goes through the payment module's public
 * `updatePaymentSession`, which hands the data to the provider's
 * `updatePayment`: an unchanged amount keeps the data and the status.
 * Answers the session written to (null: nothing written).
 * Undone when a later step fails (the cart's completion): the session gets
 * its earlier data back, so no sealed read outlives the run that made it.
 * Run twice in `process-tw-payment` under two names (before and after an
 * order's cancellation), as core reuses a step with `.config({ name })`.
 */
export const recordServiceFactsStep = createStep(
  "record-tw-service-facts",
  async ({ provider, sessionId, observation }: { provider: string; sessionId: string; observation: PaymentObservation }, { container }) => {
    const api = pluginProvider(container, provider)?.api
    if (!api) {
      return new StepResponse<string | null, Recorded | null>(null, null)
    }
    const payments = container.resolve(Modules.PAYMENT)
    const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "amount", "currency_code", "data"] })
    const attestation = api.attestor.seal({ sessionId, serviceId: observation.serviceId, amount: observation.amount, status: observation.status })
    await payments.updatePaymentSession({
      id: sessionId,
      amount: session.amount,
      currency_code: session.currency_code,
      data: { ...session.data, ...observation.facts, attestation },
    })
    return new StepResponse<string | null, Recorded | null>(sessionId, { sessionId, before: session.data ?? {}, mac: attestation.mac })
  },
  async (recorded, { container }) => {
    if (!recorded) {
      return
    }
    const payments = container.resolve(Modules.PAYMENT)
    const [session] = await payments.listPaymentSessions({ id: recorded.sessionId }, { select: ["id", "amount", "currency_code", "data"] })
    // Gone, or written since (another run's read, the shopper's own completion): that write stands.
    if (!session || macOf(session.data) !== recorded.mac) {
      return
    }
    const data = session.data ?? {}
    const changed = Object.keys(data).filter((key) => !isDeepStrictEqual(data[key], recorded.before[key]))
    const write = (values: Record<string, unknown>) => payments.updatePaymentSession({ id: session.id, amount: session.amount, currency_code: session.currency_code, data: values })
    // The module merges `data` deeply into what is stored: the keys this run changed are cleared first
    // (null, as a missing key would be kept), then their earlier values written into the cleared keys.
    const cleared = { ...data, ...Object.fromEntries(changed.map((key) => [key, null])) }
    await write(cleared)
    await write({ ...cleared, ...pick(recorded.before, changed) })
  }
)

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, data[key]]))
}

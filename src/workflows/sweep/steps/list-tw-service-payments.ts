import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { setTimeout as sleep } from "node:timers/promises"
import { planSweep } from "../decisions/service-sweep"
import type { SweepState } from "../../../reconciliation/sweep-cursors"
import { sweepProvider } from "../../../reconciliation/sweep-provider"

export interface ListServicePaymentsInput {
  provider: string
  state: SweepState
  /** Payments the store's own walk already ran in this job run. */
  skip: string[]
}

/**
 * Walks the service's list of recent payments from the cursor and picks
 * those the store does not hold (see `planSweep`). Reads only, so nothing to undo.
 */
export const listServicePaymentsStep = createStep("list-tw-service-payments", async ({ provider, state, skip }: ListServicePaymentsInput, { container }) => {
  const { key, api, reconciliation } = sweepProvider(container, provider)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const plan = await planSweep(
    state,
    {
      api,
      sessions: async (ids) => {
        const { data } = await query.graph({ entity: "payment_session", fields: ["id", "status", "data"], filters: { id: ids } })
        return data.map((s) => ({ id: s.id, status: s.status, data: s.data ?? {} }))
      },
      pause: () => sleep(1000 / reconciliation.requestsPerSecond),
      logger: container.resolve(ContainerRegistrationKeys.LOGGER),
    },
    { budget: reconciliation.maxPerRun, now: Date.now(), skip: new Set(skip), label: key }
  )
  return new StepResponse(plan)
})

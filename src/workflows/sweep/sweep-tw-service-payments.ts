import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { releaseLockStep } from "@medusajs/medusa/core-flows"
import { concludeSweep } from "./decisions/service-sweep"
import { advanceSweepCursorStep } from "./steps/advance-tw-sweep-cursor"
import { listServicePaymentsStep } from "./steps/list-tw-service-payments"
import { readSweepCursorStep } from "./steps/read-tw-sweep-cursor"
import { runSweptPaymentsStep } from "./steps/run-tw-swept-payments"
import { sweepLeaseKey, takeSweepLeaseStep } from "./steps/take-tw-sweep-lease"

export const sweepTwServicePaymentsWorkflowId = "sweep-tw-service-payments"

export interface SweepTwServicePaymentsInput {
  /** `{identifier}_{id}` of one of this plugin's providers. */
  provider: string
  /** Payments the store's own walk already ran in this job run. */
  skip?: string[]
}

/**
 * The reconciliation job's service sweep of one provider (see
 * `service-sweep.ts`): under the provider's lease, the cursor read, the
 * service's list walked from it, each payment the store does not hold run
 * through the pipeline, then the cursor advanced. A failure after that puts
 * the cursor back. `outcome` is undefined when another run holds the lease.
 */
export const sweepTwServicePaymentsWorkflow = createWorkflow(sweepTwServicePaymentsWorkflowId, (input: SweepTwServicePaymentsInput) => {
  const leaseKey = transform({ input }, ({ input }) => sweepLeaseKey(input.provider))
  const lease = takeSweepLeaseStep({ key: leaseKey })
  const outcome = when("tw-sweep-lease-held", { lease }, ({ lease }) => lease.held).then(() => {
    const cursor = readSweepCursorStep({ provider: input.provider })
    const listing = transform({ input, cursor }, ({ input, cursor }) => ({ provider: input.provider, state: cursor.state, skip: input.skip ?? [] }))
    const plan = listServicePaymentsStep(listing)
    const due = transform({ input, plan }, ({ input, plan }) => ({ provider: input.provider, due: plan.due }))
    const runs = runSweptPaymentsStep(due)
    const outcome = transform({ plan, runs }, ({ plan, runs }) => concludeSweep(plan, runs))
    const advance = transform({ cursor, outcome }, ({ cursor, outcome }) => ({ key: cursor.key, state: outcome.state }))
    advanceSweepCursorStep(advance)
    releaseLockStep({ key: leaseKey, ownerId: lease.ownerId })
    return outcome
  })
  return new WorkflowResponse({ outcome })
})

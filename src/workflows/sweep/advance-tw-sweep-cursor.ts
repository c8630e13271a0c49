import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { SweepState } from "../../reconciliation/sweep-cursors"
import { advanceSweepCursorStep } from "./steps/advance-tw-sweep-cursor"

export const advanceTwSweepCursorWorkflowId = "advance-tw-sweep-cursor"

/** Saves a walk's cursor on its own, for the walks that are not a workflow (the check of orders a completion cut short). */
export const advanceTwSweepCursorWorkflow = createWorkflow(advanceTwSweepCursorWorkflowId, (input: { key: string; state: SweepState }) => {
  advanceSweepCursorStep(input)
  return new WorkflowResponse(undefined)
})

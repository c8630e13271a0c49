export { processTwPaymentWorkflow, processTwPaymentWorkflowId, type ProcessTwPaymentInput } from "./process-tw-payment"
export { decide, type Decision, type SessionState } from "./payment-decision"

export { applyPaymentAction } from "./apply-payment-action"

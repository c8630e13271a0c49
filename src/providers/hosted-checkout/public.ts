/**
 * What the plugin's routes, workflows, jobs and subscribers use of the hosted
 * provider; everything else in this folder is the provider's own (eslint
 * refuses a deeper import from those folders).
 */
export { SAVED_CARDS_KEY, type SavedCardFact } from "./account-holder"
export { HostedCheckoutApi } from "./hosted-checkout-api"
export { ADOPTED_CONTEXT_KEY, sealAdoptedTerms } from "./sessions/adopted-session"
export { DEFAULT_INVOICE_SUMMARY, invoiceSummary } from "./invoice"
export { renewalLines } from "./invoice-details"
export { parseHostedCheckoutOptions } from "./options"
export {
  declineMessage,
  namedSavedCard,
  notChargedMessage,
  pendingMessage,
  refundedMessage,
  refusedMessage,
  SAVED_CARD_CHARGE_WORKFLOW_ID,
  type SavedCardChargeOutcome,
  type SessionSavedCard,
  sessionSavedCard,
  tokenChargeBody,
  tokenSubscriptionBody,
  unavailableMessage,
} from "./saved-card-charge-data"
export { type HostedSessionData, maskAccount, type RemitInfo, remitInfoSchema, transactionFacts } from "./hosted-checkout-session-data"
export { PAID, REFUND_STATES } from "./hosted-checkout-status-map"
export {
  awaitsFirstCharge,
  RENEWAL_CONTEXT_KEY,
  sealRenewalTerms,
  sealSubscriptionTerms,
  type SessionSubscription,
  sessionSubscription,
  SUBSCRIPTION_CONTEXT_KEY,
} from "./subscription-terms"

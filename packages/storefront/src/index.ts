/**
 * medusa-payment-tw-storefront: what a storefront needs to take payments
 * through medusa-payment-tw, over the Medusa JS SDK client it passes in.
 * Framework-free; React components live under `./react`.
 */
export { type CartCompletion, type CompleteCartOptions, completeCart, completionOf, refusalOf } from "./core/cart-completion.js"
export { type EmbeddedCardInput, startEmbeddedCard } from "./core/embedded-card.js"
export { type EmbeddedCardSession, embeddedCardFailureOf, embeddedCardSessionOf } from "./core/embedded-card-session.js"
export { HOSTED_METHODS, type HostedCheckoutInput, type HostedCheckoutStart, type HostedMethod, startHostedCheckout } from "./core/hosted-checkout.js"
export { type HostedSession, hostedSessionOf } from "./core/hosted-session.js"
export { checkedInvoice, type InvoiceChoice, InvoiceChoiceError, invoiceChoiceOf, invoiceInfoFromChoice } from "./core/invoice-choice.js"
export {
  INVOICE_ISSUE_CODES,
  type InvoiceField,
  type InvoiceInfo,
  type InvoiceIssue,
  type InvoiceIssueCode,
  type InvoiceValidation,
  validateInvoiceInfo,
} from "./core/invoice-info.js"
export { INVOICE_FIELD_MAX, isCitizenCertificate, isMobileBarcode, isValidTaxId } from "./core/invoice-rules.js"
export { type KitLocale, pickLocale } from "./core/locale.js"
export {
  formatTaipeiTime,
  ORDER_PAYMENT_FIELDS,
  type OrderPayment,
  orderPaymentOf,
  orderPaymentState,
  type OrderPaymentState,
  type OrderWithPayment,
  type PaymentInstructions,
} from "./core/order-payment.js"
export { KIT_ERROR_CODES, TwPaymentError } from "./core/payment-error.js"
export { failureAddressCode, type PaymentReturn, type PaymentReturnOptions, returnFromPayment } from "./core/payment-return.js"
export type { PaymentStart } from "./core/payment-start.js"
export { EMBEDDED_CARD_PROVIDER_ID, HOSTED_CHECKOUT_PROVIDER_ID, isEmbeddedCardProvider, isHostedCheckoutProvider, isTwPaymentProvider } from "./core/provider-ids.js"
export { type SavedCardPaymentInput, type SavedCardPaymentStart, startSavedCardPayment } from "./core/saved-card-payment.js"
export { type CardBinding, deleteSavedCard, listSavedCards, SAVED_CARD_STATUSES, type SavedCard, type SavedCardStatus, startCardBinding } from "./core/saved-cards.js"
export type { StoreAnswer } from "./core/store-answer.js"
export { proxyStoreClient } from "./core/store-client.js"
export { storeProxy, type StoreProxyOptions } from "./core/store-proxy.js"
export type { StoreSession } from "./core/store-session.js"
export {
  startSubscriptionCheckout,
  SUBSCRIPTION_PLAN_METADATA_KEY,
  type SubscriptionCheckoutInput,
  type SubscriptionCheckoutStart,
  subscriptionPlanIdOf,
} from "./core/subscription-checkout.js"
export { listSubscriptionPlans, type SubscriptionPlan } from "./core/subscription-plans.js"
export {
  cancelSubscription,
  isCancellable,
  listSubscriptions,
  retrieveSubscription,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionPeriod,
  type SubscriptionStatus,
} from "./core/subscriptions.js"
export {
  loadTwPay,
  type TwPayChangeEvent,
  type TwPayClient,
  twPayClient,
  type TwPayElements,
  type TwPayError,
  type TwPayFactory,
  type TwPayIntent,
  type TwPayPaymentElement,
  type TwPaySource,
  type TwPayTheme,
} from "./core/twpay-loader.js"
export { type ErrorCode, type KitTextKey, MESSAGES, type MessageLocale, messageFor } from "./messages/index.js"

/**
 * medusa-payment-tw-storefront/react: the pieces a storefront shows, over the
 * kit's core and a `TwPaymentProvider` holding the sdk client and the locale.
 * Unstyled (every component takes `className`), every text from the kit's
 * catalogue in `en` or `zh-TW`.
 */
export { type TwPaymentClassNames, TwPaymentProvider, type TwPaymentProviderProps, type TwPaymentContextValue, useTwPayment } from "./context.js"
export { ErrorMessage, type ErrorMessageProps } from "./error-message.js"
export { PaymentOptions, type PaymentOption, paymentOptionKey, type PaymentOptionsProps } from "./payment-options.js"
export { HostedPayButton, type HostedPayButtonProps } from "./hosted-pay-button.js"
export { EmbeddedCardElement, type EmbeddedCardElementProps } from "./embedded-card-element.js"
export { InvoiceChoice, type InvoiceChoiceProps, type InvoiceChoiceState, type InvoiceDraft, useInvoiceChoice } from "./invoice-choice.js"
export type { InvoiceSource } from "./invoice-source.js"
export { SavedCardPicker, type SavedCardPickerProps } from "./saved-card-picker.js"
export { PlanPicker, type PlanPickerProps } from "./plan-picker.js"
export { SubscribeButton, type SubscribeButtonProps } from "./subscribe-button.js"
export { PaymentReturnView, type PaymentReturnViewProps } from "./payment-return.js"
export { SavedCardsSection, type SavedCardsSectionProps } from "./saved-cards-section.js"
export { SubscriptionsSection, type SubscriptionsSectionProps } from "./subscriptions-section.js"
export { CheckoutPayment, type CheckoutPaymentProps } from "./checkout-payment.js"
export { SavedCardPayButton, type SavedCardPayButtonProps } from "./saved-card-pay-button.js"
export { OrderPaymentStatus, type OrderPaymentStatusProps } from "./order-payment-status.js"
export { ProductSubscribe, type ProductSubscribeProps } from "./product-subscribe.js"

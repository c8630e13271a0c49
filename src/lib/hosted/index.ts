export { HostedCheckoutClient, type HostedCheckoutClientOptions } from "./client"
export type { MerchantOptional } from "./api-call"
export type { WithPage } from "./resources/checkouts"
export { hostedError } from "./errors"
export { checkoutPage, PAGE_VALIDITY_MS, type CheckoutPage, type CheckoutPageKind } from "./pages"
export * from "./requests"
export * from "./responses"
export * from "./notifications"
export { invoiceInfoSchema, type InvoiceInfo } from "./invoice-info"
export { isValidTaxId } from "./tax-id"
export {
  addMonths,
  compareCalendarDates,
  formatCalendarDate,
  parseCalendarDate,
  taipeiDate,
  type CalendarDate,
} from "./taipei-date"
export type { Checkouts } from "./resources/checkouts"
export type { TokenCharges } from "./resources/token-charges"
export type { TokenSubscriptions } from "./resources/token-subscriptions"
export type { Transactions } from "./resources/transactions"
export type { Refunds } from "./resources/refunds"
export type { Subscriptions } from "./resources/subscriptions"

export { HostedCheckoutClient, type HostedCheckoutClientOptions } from "./hosted-client"
export type { ApiResult, LastResponse } from "../http"
export type { MerchantOptional } from "./merchant"
export type { WithPage } from "./resources/checkouts"
export { hostedErrorFromResponse } from "./hosted-errors"
export { checkoutPage, PAGE_VALIDITY_MS, type CheckoutPage, type CheckoutPageKind } from "./pages"
export * from "./schemas"
export { InvalidNotificationError, parseNotification } from "./notifications"
export { isValidTaxId } from "./tax-id"
export { CITIZEN_CERTIFICATE, isCitizenCertificate, isMobileBarcode, MOBILE_BARCODE } from "./invoice-carriers"
export { allowanceLines, invoiceLines, linesTotal, type OrderLine } from "./invoice-lines"
export {
  addMonths,
  compareCalendarDates,
  formatCalendarDate,
  parseCalendarDate,
  taipeiDate,
  type CalendarDate,
} from "./taipei-date"
export { CheckoutsResource } from "./resources/checkouts"
export { RefundsResource } from "./resources/hosted-refunds"
export { SubscriptionsResource } from "./resources/hosted-subscriptions"
export { TokenChargesResource, TokenSubscriptionsResource } from "./resources/token-payments"
export { TransactionsResource } from "./resources/transactions"

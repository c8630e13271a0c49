// The hosted API's wire schemas: requests checked before sending, responses and notifications parsed.
export * from "./checkout"
export {
  productDetailRecordSchema,
  productDetailSchema,
  subscriptionHidSchema,
  transactionHidSchema,
  transactionIdSchema,
  type ProductDetail,
} from "./hosted-fields"
export { invoiceInfoSchema, type InvoiceInfo } from "./invoice-info"
export * from "./notification"
export * from "./hosted-refund"
export { requestSchemas, type RequestRules, type RequestSchemas } from "./rules"
export * from "./hosted-subscription"
export * from "./token-payment"
export * from "./transaction"

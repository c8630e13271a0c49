export { EmbeddedCardClient, type EmbeddedCardClientOptions } from "./embedded-client"
export type { ApiResult, LastResponse } from "../http"
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_REPLAYED_HEADER, type IdempotentRequestOptions } from "./idempotency"
export { embeddedErrorFromResponse } from "./embedded-errors"
export { PaymentIntentsResource } from "./resources/payment-intents"
export { RefundsResource } from "./resources/embedded-refunds"
export { WebhookEndpointsResource } from "./resources/webhook-endpoints"
export { InvalidWebhookEventError, WebhookSignatureError } from "./webhook-errors"
export type { InvalidWebhookEventErrorCode, WebhookSignatureErrorCode } from "./webhook-errors"

// Webhook helpers, flat and as the `webhooks` namespace (stripe-node style).
export * from "./webhooks"
export * as webhooks from "./webhooks"

// Wire schemas as one namespace; their types and constants flat.
export * as schemas from "./schemas"
export type { DeletedResource, ListPage } from "./schemas/embedded-envelope"
export {
  PAYMENT_INTENT_EVENT_TYPES,
  REFUND_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  type PaymentIntentEvent,
  type PaymentIntentEventType,
  type RefundEvent,
  type RefundEventType,
  type WebhookEvent,
  type WebhookEventType,
} from "./schemas/event"
export { METADATA_LIMITS, type Metadata } from "./schemas/metadata"
export {
  AMOUNT_LIMITS,
  PAYMENT_INTENT_STATUSES,
  type CreatedPaymentIntent,
  type CreatePaymentIntentParams,
  type ListPaymentIntentsParams,
  type PaymentIntent,
  type PaymentIntentStatus,
  type UpdatePaymentIntentParams,
} from "./schemas/payment-intent"
export {
  REFUND_REASONS,
  REFUND_STATUSES,
  type CreateRefundParams,
  type ListRefundsParams,
  type Refund,
  type RefundReason,
  type RefundStatus,
} from "./schemas/embedded-refund"
export {
  WEBHOOK_ENDPOINT_STATUSES,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointParams,
  type RotatedWebhookEndpoint,
  type UpdateWebhookEndpointParams,
  type WebhookDeliveryLog,
  type WebhookEndpoint,
} from "./schemas/webhook-endpoint"

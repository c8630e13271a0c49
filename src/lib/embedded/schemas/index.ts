// The embedded API's wire schemas: requests checked before sending, responses and events parsed.
export * from "./embedded-envelope"
export * from "./event"
export * from "./embedded-fields"
export * from "./metadata"
export * from "./payment-intent"
export * from "./embedded-refund"
export * from "./webhook-endpoint"

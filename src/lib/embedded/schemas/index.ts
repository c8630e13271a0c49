// The embedded API's wire schemas: requests checked before sending, responses and events parsed.
export * from "./envelope"
export * from "./event"
export * from "./fields"
export * from "./metadata"
export * from "./payment-intent"
export * from "./refund"
export * from "./webhook-endpoint"

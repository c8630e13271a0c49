// The embedded API's wire schemas, for the client and the sandbox alike.
export * from "./envelope"
export * from "./event"
export * from "./fields"
export * from "./metadata"
export * from "./payment-intent"
export * from "./refund"
export * from "./webhook-endpoint"

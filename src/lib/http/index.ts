export * from "./errors"
export { redact, REDACTED, type Logger } from "./redact"
export { parseRetryAfter, type RetryOptions } from "./retry"
export { HttpTransport, type TimeoutOptions, type TransportOptions, type TransportRequest, type TransportResponse } from "./transport"

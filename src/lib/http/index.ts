export * from "./http-errors"
export { errorFromStatus, QUERY_FIRST } from "./status-errors"
export { withLastResponse, type ApiResult, type LastResponse } from "./api-result"
export { redact, REDACTED, type Logger } from "./redact"
export { Requester, type ApiCall, type ApiProtocol, type Envelope, type FailedCall, type HttpMethod } from "./requester"
export { parseRetryAfter, type RetryOptions } from "./retry"
export { describeIssues, parseResponse, pathParam, validateRequest } from "./validate"
export {
  HttpTransport,
  type ConnectionOptions,
  type TimeoutOptions,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from "./transport"

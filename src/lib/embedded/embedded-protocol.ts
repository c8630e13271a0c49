import type { ApiProtocol } from "../http"
import { embeddedErrorFromResponse } from "./embedded-errors"
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from "./idempotency"
import { envelope } from "./schemas/embedded-envelope"

/**
 * The embedded API's wire conventions (spec 2, 4, 7): any 2xx carries
 * `{ data, requestId }`, failures carry `{ error, requestId }`, and creates take
 * an `Idempotency-Key` that makes them safe to repeat.
 */
export const embeddedProtocol: ApiProtocol = {
  userAgent: "medusa-payment-tw (embedded-card)",
  isSuccess: (res) => res.status >= 200 && res.status < 300,
  envelope,
  errorFromResponse: embeddedErrorFromResponse,
  idempotency: { keyHeader: IDEMPOTENCY_KEY_HEADER, replayedHeader: IDEMPOTENCY_REPLAYED_HEADER },
}

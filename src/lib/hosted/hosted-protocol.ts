import type { ApiProtocol } from "../http"
import { hostedErrorFromResponse } from "./hosted-errors"
import { envelope } from "./schemas/hosted-envelope"

/** Spec 5: every request, reads included, carries the JSON content type. */
const HEADERS = Object.freeze({ "content-type": "application/json" })

/**
 * The hosted API's wire conventions (spec 2.1, 5, 7): a result is a 2xx whose
 * envelope code is `S0000`; anything else is a failure, even a 200. There are
 * no idempotency keys, so only reads are ever repeated.
 */
export const hostedProtocol: ApiProtocol = {
  headers: HEADERS,
  isSuccess: (res) => res.status >= 200 && res.status < 300 && (res.body as { code?: unknown } | null)?.code === "S0000",
  envelope,
  errorFromResponse: hostedErrorFromResponse,
}

import { json, type SandboxResponse } from "../server"

/**
 * The hosted API's response envelope (spec 2.1): success `{ code: "S0000", data,
 * message: "" }`, failure `{ code, data: {}, message }` plus `retryable: false` on
 * 409 and `detail` on K0001. Fields without a value are left out.
 */

export class HostedError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {}
  ) {
    super(message)
  }
}

/** V0001: every failed rule, joined (the spec promises a list, not its punctuation). */
export function validationError(rules: string[]): HostedError {
  return new HostedError(400, "V0001", rules.join("; "))
}

export function stateError(message: string): HostedError {
  return new HostedError(400, "V0002", message)
}

export function systemError(message = "System error"): HostedError {
  return new HostedError(500, "F0001", message)
}

export function unknownResultError(): HostedError {
  return new HostedError(409, "C026", "Payment result unknown; query the transaction instead of retrying", {
    retryable: false,
  })
}

/** Records are compacted by their views; a list's `page: null` is part of its shape and stays. */
export function ok(data: object): SandboxResponse {
  return json(200, { code: "S0000", data, message: "" })
}

export function failure(error: HostedError): SandboxResponse {
  return json(error.status, { code: error.code, data: {}, message: error.message, ...error.extra })
}

/** Drops `undefined` and `null` members, deeply: the service omits fields without a value. */
export function withoutEmpty<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map((item) => withoutEmpty(item)) as T
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined && member !== null) {
        out[key] = withoutEmpty(member)
      }
    }
    return out as T
  }
  return value
}

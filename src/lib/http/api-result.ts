/** What the client learned from the HTTP exchange, kept apart from the resource itself. */
export interface LastResponse {
  /** The service's request id, where the API gives one (embedded envelope `requestId`); quote it to support. */
  requestId?: string
  status: number
  /** HTTP attempts it took, retries included. */
  attempts: number
  /** The idempotency key sent; only on keyed writes. */
  idempotencyKey?: string
  /** True when the service answered from its idempotency record (embedded `Idempotency-Replayed: true`). */
  idempotencyReplayed: boolean
}

/**
 * Every client method that makes one request resolves to the resource with a
 * `lastResponse` property, like stripe-node. It is non-enumerable, so
 * spreading, `toEqual` and `JSON.stringify` see only the resource, and an
 * `ApiResult<T>` can be used wherever a plain `T` is expected.
 */
export type ApiResult<T> = T & { readonly lastResponse: LastResponse }

export function withLastResponse<T extends object>(resource: T, lastResponse: LastResponse): ApiResult<T> {
  return Object.defineProperty(resource, "lastResponse", {
    value: Object.freeze(lastResponse),
    enumerable: false,
    writable: false,
    configurable: false,
  }) as ApiResult<T>
}

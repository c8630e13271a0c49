/** What the client learned from the HTTP exchange, kept apart from the resource itself. */
export interface LastResponse {
  /** The service's request id (envelope `requestId`); quote it to support. */
  requestId: string
  status: number
  /** HTTP attempts it took, retries included. */
  attempts: number
  /** The `Idempotency-Key` sent; only on keyed creates. */
  idempotencyKey?: string
  /** True when the service answered from its idempotency record (`Idempotency-Replayed: true`). */
  idempotencyReplayed: boolean
}

/**
 * Every client method resolves to the resource with a `lastResponse` property,
 * like stripe-node. It is non-enumerable, so spreading, `toEqual` and
 * `JSON.stringify` see only the resource.
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

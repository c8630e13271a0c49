import type { z } from "zod"
import { type HttpTransport, InvalidRequestError, type TransportRequest } from "../http"
import { parseResponse, validateRequest } from "../http/validate"
import { hostedError } from "./errors"
import type { RequestSchemas } from "./requests"

/** What every resource needs: one transport, the merchant, the checked schemas and the clock. */
export interface HostedContext {
  transport: HttpTransport
  merchantId: string
  checkoutHost: string
  schemas: RequestSchemas
  now: () => Date
}

export interface ApiCall<S extends z.ZodType> {
  method: "GET" | "POST" | "PUT"
  /** Path template for messages, e.g. `/refunds/{transactionHid}`. */
  template: string
  /** Encoded path actually requested. */
  path: string
  query?: Record<string, string | undefined>
  body?: unknown
  /** Request values to redact (the card token). */
  secrets?: string[]
  data: S
}

/**
 * Sends one request and returns the parsed `data` of a success envelope, or throws
 * the typed error. Only reads are retried by the transport: writes have no
 * idempotency key, so repeating one could charge twice.
 */
export async function callApi<S extends z.ZodType>(ctx: HostedContext, call: ApiCall<S>): Promise<z.output<S>> {
  const request: TransportRequest = {
    method: call.method,
    path: call.path,
    query: call.query,
    body: call.body,
    // Spec 5: every request, reads included, carries the JSON content type.
    headers: { "content-type": "application/json" },
    safeToRetry: call.method === "GET",
    secrets: call.secrets,
  }
  const label = `${call.method} ${call.template}`
  const res = await ctx.transport.request(request)
  const code = (res.body as { code?: unknown } | null)?.code
  if (res.status < 200 || res.status > 299 || code !== "S0000") {
    throw hostedError(res, {
      method: call.method,
      label,
      redact: (text) => ctx.transport.redact(text, call.secrets),
    })
  }
  // The envelope's code was checked above; parse `data` with its static schema
  // (building a wrapper schema per call would make zod compile it anew each time).
  return parseResponse(call.data, (res.body as { data?: unknown }).data, label, { status: res.status })
}

/** `merchantId` comes from the client options; passing it is allowed only when it matches. */
export type MerchantOptional<T extends { merchantId: string }> = Omit<T, "merchantId"> & { merchantId?: string }

/**
 * Fills `merchantId` from the client options and validates the body. A caller's
 * different `merchantId` is refused here: the service would answer `V0001`, and a
 * mix-up of merchants is a bug worth catching before any network call.
 */
export function checkedBody<S extends z.ZodType>(
  ctx: HostedContext,
  schema: S,
  input: { merchantId?: string } & object,
  what: string
): z.output<S> {
  if (input === null || typeof input !== "object") {
    throw new InvalidRequestError({ code: "CLIENT_VALIDATION", message: `Invalid ${what}: body must be an object` })
  }
  if (input.merchantId !== undefined && input.merchantId !== ctx.merchantId) {
    throw new InvalidRequestError({
      code: "CLIENT_VALIDATION",
      field: "merchantId",
      message: `Invalid ${what}: merchantId differs from the merchant this client is configured for`,
    })
  }
  return validateRequest(schema, { ...input, merchantId: ctx.merchantId }, what)
}

/** Validates a path parameter and encodes it as one path segment. */
export function pathParam(schema: z.ZodType, value: unknown, what: string): string {
  return encodeURIComponent(validateRequest(schema, value, what) as string)
}

import type { ApiFaultKind } from "../faults"
import type { Holds } from "../holds"
import { Router } from "../router"
import type { Mount, SandboxRequest, SandboxResponse } from "../server"
import type { EmbeddedContext } from "./context"
import { assertOriginAllowed, CHECKOUT_ORIGIN_HEADER, checkoutOriginOf } from "./domains"
import type { EmbeddedCall, HandlerResult } from "./endpoints/call"
import { cancelIntent, createIntent, getIntent, listIntents, updateIntent } from "./endpoints/payment-intents"
import { createRefund, getRefund, listRefunds } from "./endpoints/refunds"
import { confirmPayment, createToken, intentStatus, simulateThreeDs } from "./endpoints/sdk"
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook, webhookLogs } from "./endpoints/webhooks"
import { type ApiAnswer, ApiError, failure, internalError, success, toResponse } from "./envelope"
import { IdempotencyStore, type IdempotencyTicket } from "./idempotency"
import { newId } from "./ids"
import { authenticate } from "./authentication"

interface RouteDef {
  handler: (ctx: EmbeddedContext, call: EmbeddedCall) => HandlerResult
  /** One of the four SDK endpoints: publishable keys allowed, CORS answered. */
  sdk: boolean
  /** Takes `Idempotency-Key`. */
  idempotent: boolean
}

const backend = (handler: RouteDef["handler"], idempotent = false): RouteDef => ({ handler, sdk: false, idempotent })
const sdk = (handler: RouteDef["handler"], idempotent = false): RouteDef => ({ handler, sdk: true, idempotent })

export const EMBEDDED_API_PREFIX = "/v1"
const REFUND_ENDPOINT = "POST /v1/refunds"
const CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key", CHECKOUT_ORIGIN_HEADER].join(", ")
const CORS_EXPOSE_HEADERS = "x-request-id, idempotency-replayed, retry-after"

/**
 * The embedded API under `/v1` (spec 4). Each request goes:
 * route (404 `NOT_FOUND` / 405 `METHOD_NOT_ALLOWED`) -> firewall (publishable keys; 403,
 * not an API body) -> key and merchant checks (401 `AUTH_INVALID_KEY`) -> rate limits (429)
 * -> checkout origin of publishable-key calls (403 `FORBIDDEN_ORIGIN`) -> `Idempotency-Key`
 * form (400) -> injected fault -> idempotency record (replay / 409 / 422) -> the endpoint.
 * Every answer carries `X-Request-Id`; SDK endpoints answer CORS for any origin (the
 * origin check itself gives 403 with CORS headers, so the SDK can read the error).
 */
export function createEmbeddedApi(ctx: EmbeddedContext, holds: Holds): { mount: Mount; endpoints: string[] } {
  const router = new Router<RouteDef>()
    .add("POST", "/payment-intents", backend(createIntent, true))
    .add("GET", "/payment-intents", backend(listIntents))
    .add("GET", "/payment-intents/{id}", backend(getIntent))
    .add("PATCH", "/payment-intents/{id}", backend(updateIntent))
    .add("POST", "/payment-intents/{id}/cancel", backend(cancelIntent))
    .add("POST", "/refunds", backend(createRefund, true))
    .add("GET", "/refunds", backend(listRefunds))
    .add("GET", "/refunds/{id}", backend(getRefund))
    .add("POST", "/webhooks", backend(createWebhook))
    .add("GET", "/webhooks", backend(listWebhooks))
    .add("GET", "/webhooks/{id}", backend(getWebhook))
    .add("PATCH", "/webhooks/{id}", backend(updateWebhook))
    .add("DELETE", "/webhooks/{id}", backend(deleteWebhook))
    .add("GET", "/webhooks/{id}/logs", backend(webhookLogs))
    .add("POST", "/webhooks/{id}/rotate-secret", backend(rotateWebhookSecret))
    .add("POST", "/tokens", sdk(createToken))
    .add("POST", "/confirm", sdk(confirmPayment, true))
    .add("GET", "/payment-intents/{id}/status", sdk(intentStatus))
    .add("POST", "/3ds/simulate", sdk(simulateThreeDs))

  const handle = async (req: SandboxRequest): Promise<SandboxResponse> => {
    const requestId = newId.request()
    const route = router.match(req.method, req.path)
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined

    if (route.kind === "not-found") {
      return toResponse(failure(new ApiError(404, "NOT_FOUND", `No endpoint ${req.method} ${req.fullPath}`), requestId))
    }
    if (route.kind === "method-not-allowed") {
      const sdkPath = route.allowed.some((m) => {
        const other = router.match(m, req.path)
        return other.kind === "match" && other.handler.sdk
      })
      if (req.method === "OPTIONS" && sdkPath) {
        return preflight(route.allowed, origin, requestId)
      }
      const allow = route.allowed.join(", ")
      return toResponse(failure(new ApiError(405, "METHOD_NOT_ALLOWED", `Use ${allow}`), requestId), { allow })
    }
    const def = route.handler
    const cors: Record<string, string> = def.sdk && origin ? corsHeaders(origin) : {}
    const endpoint = `${req.method} ${EMBEDDED_API_PREFIX}${route.template}`

    const bearer = /^Bearer (\S+)$/.exec(headerOf(req, "authorization") ?? "")?.[1]
    const keyMatch = bearer ? ctx.accounts.lookup(bearer) : undefined
    if (keyMatch?.kind === "publishable" && !ctx.limiter.firewall(keyMatch.account.merchantId, req.remoteAddress, keyMatch.key, keyMatch.account.rateLimits)) {
      return firewallBlock()
    }

    let ticket: IdempotencyTicket | undefined
    try {
      const auth = authenticate(ctx, req, keyMatch, def.sdk)
      const verdict = ctx.limiter.apiLimits({
        kind: auth.kind,
        key: auth.key,
        merchantId: auth.account.merchantId,
        ip: req.remoteAddress,
        limits: auth.account.rateLimits,
      })
      if (!verdict.ok) {
        throw new ApiError(429, "AUTH_RATE_LIMITED", `Too many requests; retry after ${verdict.retryAfterSec} s`, null, {
          "retry-after": String(verdict.retryAfterSec),
        })
      }
      verdict.commit()
      const checkoutOrigin = auth.kind === "publishable" ? checkoutOriginOf(req) : null
      if (checkoutOrigin !== null) {
        assertOriginAllowed(checkoutOrigin, auth.account)
      }
      const idempotencyKey = def.idempotent ? IdempotencyStore.parseKey(req.headers["idempotency-key"]) : undefined
      const call: EmbeddedCall = {
        account: auth.account,
        merchantId: auth.account.merchantId,
        keyKind: auth.kind,
        params: route.params,
        query: req.query,
        rawBody: req.body,
        checkoutOrigin,
      }
      ctx.core.apiCalls.count("embedded", call.merchantId, endpoint)
      const kinds: ApiFaultKind[] = endpoint === REFUND_ENDPOINT ? ["http500", "timeout", "refundReconciliation"] : ["http500", "timeout"]
      const fault = ctx.core.faults.takeApi({ api: "embedded", merchantId: call.merchantId, endpoint }, kinds)

      const process = (): ApiAnswer => {
        try {
          return success(def.handler(ctx, call).data, requestId)
        } catch (err) {
          if (err instanceof ApiError) {
            return failure(err, requestId)
          }
          ctx.core.log(`embedded API ${endpoint} failed: ${(err as Error).stack ?? String(err)}`)
          return failure(internalError(), requestId)
        }
      }
      /** Runs the request under its idempotency key (if any); `ticket` stays open for the caller to close. */
      const run = (): { answer: ApiAnswer; replayed: boolean } => {
        if (idempotencyKey === undefined) {
          return { answer: process(), replayed: false }
        }
        const start = ctx.idempotency.begin(call.merchantId, idempotencyKey, endpoint, req.body)
        if (start.kind === "replay") {
          return { answer: start.answer, replayed: true }
        }
        ticket = start.ticket
        return { answer: process(), replayed: false }
      }
      const close = (answer: ApiAnswer) => {
        if (ticket) {
          ctx.idempotency.complete(ticket, answer)
        }
      }

      if (!fault) {
        const { answer, replayed } = run()
        close(answer)
        return toResponse(answer, { ...cors, ...(replayed ? { "idempotency-replayed": "true" } : {}) })
      }
      const faultError =
        fault.kind === "refundReconciliation"
          ? new ApiError(409, "REFUND_RECONCILIATION_REQUIRED", "The refund result is unknown; query the refunds of this payment intent before retrying with the same key")
          : internalError()
      if (fault.kind === "timeout") {
        let held: { answer: ApiAnswer; replayed: boolean } | undefined
        if (fault.applied) {
          held = run()
        } else if (idempotencyKey !== undefined) {
          // The request "hangs" for good: its key stays in progress until the 5-minute takeover.
          const start = ctx.idempotency.begin(call.merchantId, idempotencyKey, endpoint, req.body)
          ticket = undefined
          if (start.kind === "replay") {
            held = { answer: start.answer, replayed: true }
          }
        }
        const completed = await holds.wait(fault.holdMs)
        if (held) {
          close(held.answer)
        }
        if (!completed || fault.then === "drop") {
          return { drop: true }
        }
        return held
          ? toResponse(held.answer, { ...cors, ...(held.replayed ? { "idempotency-replayed": "true" } : {}) })
          : toResponse(failure(faultError, requestId), cors)
      }
      if (fault.applied) {
        close(run().answer)
      }
      return toResponse(failure(faultError, requestId), cors)
    } catch (err) {
      if (ticket) {
        ctx.idempotency.release(ticket)
      }
      if (err instanceof ApiError) {
        return toResponse(failure(err, requestId), cors)
      }
      throw err
    }
  }

  return { mount: { prefix: EMBEDDED_API_PREFIX, handle }, endpoints: router.endpoints().map((e) => e.replace(" /", ` ${EMBEDDED_API_PREFIX}/`)) }
}

function headerOf(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": CORS_EXPOSE_HEADERS }
}

function preflight(allowed: string[], origin: string | undefined, requestId: string): SandboxResponse {
  return {
    status: 204,
    headers: {
      "x-request-id": requestId,
      ...(origin
        ? {
            "access-control-allow-origin": origin,
            vary: "Origin",
            "access-control-allow-methods": allowed.join(", "),
            "access-control-allow-headers": CORS_ALLOW_HEADERS,
            "access-control-max-age": "600",
          }
        : {}),
    },
    body: "",
  }
}

/**
 * The firewall's answer: it stands in front of the API, so it has neither the API's
 * envelope nor `X-Request-Id`, and no `Retry-After` (spec 8: "a non-standard body").
 */
function firewallBlock(): SandboxResponse {
  return {
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body: "<!doctype html><html><head><title>403 Forbidden</title></head><body><h1>Request blocked</h1><p>Too many requests from this client. Try again later.</p></body></html>",
  }
}

import type { Holds } from "../holds"
import { Router } from "../router"
import { json, type Mount, type SandboxRequest, type SandboxResponse, text } from "../server"
import type { HostedContext } from "./context"
import type { HostedCall } from "./endpoints/call"
import { createCardBinding, createCheckout, createScheduleCheckout, createSubscriptionCheckout } from "./endpoints/checkouts"
import { getSubscription, getTransaction, listOrderTransactions, listSubscriptions, listTransactions } from "./endpoints/queries"
import { refundTransaction } from "./endpoints/refunds"
import { cancelSubscription } from "./endpoints/subscriptions"
import { chargeToken, subscribeToken } from "./endpoints/token-charges"
import { failure, HostedError, ok, systemError } from "./envelope"
import type { Recurring } from "./recurring"

type Handler = (call: HostedCall) => object

/**
 * The hosted API (spec section 4) behind one base path. Each request goes:
 * route (404 / 405 plain text) -> `Authorization: Bearer <token>` exactly (401
 * A0001) -> production IP allowlist (403 `{ message }`) -> injected faults ->
 * JSON body (500 F0001) -> the endpoint, whose result is put in the envelope.
 */
export function createHostedApi(ctx: HostedContext, recurring: Recurring, holds: Holds): { mount: Mount; endpoints: string[] } {
  const router = new Router<Handler>()
    .add("POST", "/checkout", (call) => createCheckout(ctx, call))
    .add("POST", "/checkout-subscription", (call) => createSubscriptionCheckout(ctx, call))
    .add("POST", "/checkout-schedule", (call) => createScheduleCheckout(ctx, call))
    .add("POST", "/checkout-token", (call) => createCardBinding(ctx, call))
    .add("POST", "/token/transactions", (call) => chargeToken(ctx, call))
    .add("POST", "/token/subscriptions", (call) => subscribeToken(ctx, recurring, call))
    .add("GET", "/transactions/{id}", (call) => getTransaction(ctx, call))
    .add("GET", "/transactions", (call) => listTransactions(ctx, call))
    .add("GET", "/order/{orderId}/transactions", (call) => listOrderTransactions(ctx, call))
    .add("POST", "/refunds/{transactionHid}", (call) => refundTransaction(ctx, call))
    .add("GET", "/subscriptions/{id}", (call) => getSubscription(ctx, call))
    .add("PUT", "/subscriptions/{subscriptionHid}", (call) => cancelSubscription(ctx, recurring, call))
    .add("GET", "/subscriptions", (call) => listSubscriptions(ctx, call))

  const handle = async (req: SandboxRequest): Promise<SandboxResponse> => {
    const route = router.match(req.method, req.path)
    if (route.kind === "not-found") {
      return text(404, "Not Found")
    }
    if (route.kind === "method-not-allowed") {
      return text(405, "Method Not Allowed", { allow: route.allowed.join(", ") })
    }
    // Exactly "Bearer", one space, the token: anything else is a malformed header.
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")
    const merchant = auth ? ctx.core.merchants.byToken(auth[1]) : undefined
    if (!merchant) {
      return failure(new HostedError(401, "A0001", "Unauthorized: API token invalid"))
    }
    if (merchant.production && !merchant.ipAllowlist.includes(req.remoteAddress)) {
      return json(403, { message: "Forbidden" })
    }
    const endpoint = `${req.method} ${route.template}`
    ctx.core.apiCalls.count("hosted", merchant.merchantId, endpoint)
    const run = (): SandboxResponse => execute(route.handler, { merchant, endpoint, params: route.params, query: req.query, body: undefined }, req)
    const fault = ctx.core.faults.takeApi({ api: "hosted", merchantId: merchant.merchantId, endpoint }, ["http500", "timeout"])
    if (fault?.kind === "http500") {
      if (fault.applied) {
        run()
      }
      return failure(systemError())
    }
    if (fault?.kind === "timeout") {
      const response = fault.applied ? run() : failure(systemError())
      const completed = await holds.wait(fault.holdMs)
      return completed && fault.then === "answer" ? response : { drop: true }
    }
    return run()
  }

  const execute = (handler: Handler, call: HostedCall, req: SandboxRequest): SandboxResponse => {
    try {
      if (req.method === "POST" || req.method === "PUT") {
        call.body = parseJson(req.body)
      }
      return ok(handler(call))
    } catch (err) {
      if (err instanceof HostedError) {
        return failure(err)
      }
      ctx.core.log(`hosted API ${call.endpoint} failed: ${(err as Error).stack ?? String(err)}`)
      return failure(systemError())
    }
  }

  return { mount: { prefix: "/hosted-api", handle }, endpoints: router.endpoints() }
}

/** An empty body is not JSON either: both are 500 F0001 (a body "must be sent"). */
function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"))
  } catch {
    throw systemError("Invalid JSON body")
  }
}

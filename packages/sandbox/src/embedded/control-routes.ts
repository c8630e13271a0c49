import { z } from "zod"
import { ControlError, type ControlRouter, parseBody, reply } from "../control/routes"
import type { EmbeddedContext } from "./context"
import type { PaymentIntentRecord } from "./intents"
import type { EmbeddedAccount } from "./keys"
import { PAYMENT_FAILURE_CODES } from "./test-cards"
import { intentView, refundView } from "./views"

/**
 * Embedded parts of the control API (the embed tab of the admin console, and test hooks):
 * merchant embedded settings and keys, internal views of intents and refunds, forcing a
 * processing payment or a pending refund to its end, and every webhook event and delivery
 * attempt with the headers sent.
 */

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString())

const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)$/, "a hostname without scheme, port or path")

const settingsSchema = z.strictObject({
  embedActive: z.boolean().optional(),
  merchantActive: z.boolean().optional(),
  paymentServiceActive: z.boolean().optional(),
  allowedDomains: z.array(domainSchema).optional(),
  rateLimits: z
    .strictObject({
      secretPerMinute: z.int().min(1),
      publishablePerMinutePerIp: z.int().min(1),
      publishablePerMinutePerKey: z.int().min(1),
      firewallPer5MinPerIp: z.int().min(1),
      firewallPer5MinPerKey: z.int().min(1),
    })
    .partial()
    .optional(),
})

const revokeSchema = z.strictObject({ key: z.string().min(1).optional() })
const processingSchema = z.strictObject({
  outcome: z.enum(["succeeded", "failed"]).optional(),
  code: z.enum(PAYMENT_FAILURE_CODES).optional(),
})
const refundResolveSchema = z.strictObject({ outcome: z.enum(["succeeded", "failed"]) })

export function addEmbeddedControlRoutes(router: ControlRouter, ctx: EmbeddedContext): void {
  const account = (merchantId: string): EmbeddedAccount => {
    if (!ctx.core.merchants.get(merchantId)) {
      throw new ControlError(404, `no merchant ${merchantId}`)
    }
    return ctx.accounts.account(merchantId)
  }
  const accountView = (a: EmbeddedAccount) => ({
    merchantId: a.merchantId,
    embedActive: a.embedActive,
    merchantActive: a.merchantActive,
    paymentServiceActive: ctx.core.merchants.get(a.merchantId)?.paymentServiceActive ?? false,
    allowedDomains: a.allowedDomains,
    rateLimits: a.rateLimits,
    keys: a.keys.map((k) => ({ ...k, createdAt: iso(k.createdAt), expiresAt: iso(k.expiresAt), revokedAt: iso(k.revokedAt) })),
    current: ctx.accounts.currentPair(a.merchantId) ?? null,
  })
  const intent = (id: string): PaymentIntentRecord => {
    const found = ctx.intents.get(id)
    if (!found) {
      throw new ControlError(404, `no payment intent ${id}`)
    }
    return found
  }
  const internalIntent = (i: PaymentIntentRecord) => ({
    ...intentView(i, ctx.refunds.amountRefundable(i)),
    merchantId: i.merchantId,
    clientSecret: i.clientSecret,
    card: i.card,
    challenge: i.challenge ? { ...i.challenge, startedAt: iso(i.challenge.startedAt), expiresAt: iso(i.challenge.expiresAt), endedAt: iso(i.challenge.endedAt) } : null,
    processingSince: iso(i.processingSince),
    succeededAt: iso(i.succeededAt),
    canceledAt: iso(i.canceledAt),
    createdAt: iso(i.createdAt),
  })

  router
    .add("GET", "/merchants/{merchantId}/embedded", (req) => reply(accountView(account(req.params.merchantId))))
    .add("PATCH", "/merchants/{merchantId}/embedded", (req) => {
      const a = account(req.params.merchantId)
      const patch = parseBody(settingsSchema, req.body)
      a.embedActive = patch.embedActive ?? a.embedActive
      a.merchantActive = patch.merchantActive ?? a.merchantActive
      a.allowedDomains = patch.allowedDomains ?? a.allowedDomains
      a.rateLimits = { ...a.rateLimits, ...patch.rateLimits }
      if (patch.paymentServiceActive !== undefined) {
        ctx.core.merchants.update(a.merchantId, { paymentServiceActive: patch.paymentServiceActive })
      }
      return reply(accountView(a))
    })
    .add("POST", "/merchants/{merchantId}/embedded/keys", (req) => {
      account(req.params.merchantId)
      const pair = ctx.accounts.regenerate(req.params.merchantId)
      return reply({ publishableKey: pair.publishableKey, secretKey: pair.secretKey, createdAt: iso(pair.createdAt) }, 201)
    })
    .add("POST", "/merchants/{merchantId}/embedded/keys/revoke", (req) => {
      const a = account(req.params.merchantId)
      const { key } = parseBody(revokeSchema, req.body)
      if (!ctx.accounts.revoke(a.merchantId, key)) {
        throw new ControlError(404, `no key ${key} for merchant ${a.merchantId}`)
      }
      return reply(accountView(a))
    })
    .add("GET", "/payment-intents", (req) => reply({ paymentIntents: ctx.intents.list(req.query.get("merchantId") ?? undefined).map(internalIntent) }))
    .add("GET", "/payment-intents/{id}", (req) => reply(internalIntent(intent(req.params.id))))
    .add("POST", "/payment-intents/{id}/processing-resolve", (req) => {
      const i = intent(req.params.id)
      const input = parseBody(processingSchema, req.body)
      if (i.status !== "processing") {
        throw new ControlError(409, `payment intent ${i.id} is ${i.status}, not processing`)
      }
      if (input.outcome === "failed") {
        ctx.intents.settle(i, { kind: "failed", code: input.code ?? "CARD_DECLINED" })
      } else if (input.outcome === "succeeded") {
        ctx.intents.settle(i, { kind: "succeeded" })
      } else {
        ctx.intents.settle(i)
      }
      return reply(internalIntent(i))
    })
    .add("GET", "/refunds", (req) => {
      const intentId = req.query.get("paymentIntentId")
      const list = ctx.refunds.list(req.query.get("merchantId") ?? undefined).filter((r) => intentId === null || r.paymentIntentId === intentId)
      return reply({ refunds: list.map((r) => ({ ...refundView(r), merchantId: r.merchantId, settledAt: iso(r.settledAt) })) })
    })
    .add("POST", "/refunds/{id}/resolve", (req) => {
      const refund = ctx.refunds.get(req.params.id)
      if (!refund) {
        throw new ControlError(404, `no refund ${req.params.id}`)
      }
      const { outcome } = parseBody(refundResolveSchema, req.body)
      if (refund.status !== "pending") {
        throw new ControlError(409, `refund ${refund.id} is ${refund.status}, not pending`)
      }
      ctx.refunds.settle(refund, outcome)
      return reply(refundView(refund))
    })
    .add("GET", "/webhook-endpoints", (req) =>
      reply({
        webhookEndpoints: ctx.webhooks.list(req.query.get("merchantId") ?? undefined).map((e) => ({
          ...e,
          createdAt: iso(e.createdAt),
          previousSecret: e.previousSecret ? { ...e.previousSecret, expiresAt: iso(e.previousSecret.expiresAt) } : null,
        })),
      })
    )
    .add("GET", "/webhook-events", (req) =>
      reply({
        events: ctx.events
          .list({ merchantId: req.query.get("merchantId") ?? undefined, type: req.query.get("type") ?? undefined })
          .map((e) => ({ id: e.id, type: e.type, merchantId: e.merchantId, createdAt: iso(e.createdAt), body: JSON.parse(e.payload), deliveryIds: e.deliveryIds })),
      })
    )
    .add("GET", "/webhook-deliveries", (req) =>
      reply({
        deliveries: ctx.deliveries
          .list({
            merchantId: req.query.get("merchantId") ?? undefined,
            endpointId: req.query.get("endpointId") ?? undefined,
            eventId: req.query.get("eventId") ?? undefined,
            eventType: req.query.get("eventType") ?? undefined,
          })
          .map((d) => ({
            ...d,
            createdAt: iso(d.createdAt),
            nextAttemptAt: iso(d.nextAttemptAt),
            attempts: d.attempts.map((a) => ({ ...a, attemptedAt: iso(a.attemptedAt) })),
          })),
      })
    )
}

import { metrics } from "@opentelemetry/api"
import { MeterProvider, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { createHmac } from "node:crypto"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { METRIC_NAMES } from "../../src/lib/metrics/payment-metrics"
import type { HealthResponse } from "../../src/shared/health-views"
import { checkTwPaymentsHealthWorkflow } from "../../src/workflows/health/check-tw-payments-health"
import {
  adminToken,
  card,
  completeCart,
  confirmCard,
  control,
  createCart,
  EMBEDDED_HOOK_PATH,
  EMBEDDED_PROVIDER_ID,
  expectOneCapturedOrder,
  orderOfCart,
  payPage,
  paymentsOf,
  quietEmbeddedWebhooks,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  STOREFRONT,
  updateEmbeddedEndpoint,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
// The scheduled reconciliation would settle what these tests leave unsettled on purpose; they run it themselves.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()
const SUCCESS = "4242424242424242"
const DECLINED = "4000000000000002"
const THREE_DS = "4000000000003220"
const PROCESSING = "4000000000007700"

/** An OpenTelemetry reader the test collects from itself: no exporter, no collector. */
class InMemoryReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

/** The data points of one metric, with their attributes. */
function pointsOf(collected: ResourceMetrics, name: string) {
  return collected.scopeMetrics.flatMap((scope) => scope.metrics.filter((metric) => metric.descriptor.name === name).flatMap((metric) => metric.dataPoints as Array<{ attributes: Record<string, unknown>; value: unknown }>))
}
const sumOf = (collected: ResourceMetrics, name: string, attributes: Record<string, string>) =>
  pointsOf(collected, name)
    .filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + (typeof point.value === "number" ? point.value : (point.value as { count: number }).count), 0)

/** Signs a body as the service does, with plain node:crypto (independent of the plugin's helper). */
const sign = (body: string, secret: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL, { reset: false })
    })
    afterEach(async () => {
      await quietEmbeddedWebhooks(env.sandbox)
    })

    const start = (cartId: string) => startPayment(api, store, cartId, {}, EMBEDDED_PROVIDER_ID)
    const eventsOf = async (intentId: string) =>
      ((await control(env.sandbox, "GET", "/webhook-events")).events as Array<{ id: string; type: string; body: { data: { id?: string; paymentIntentId?: string } } }>).filter(
        (e) => (e.body.data.id ?? e.body.data.paymentIntentId) === intentId || e.body.data.paymentIntentId === intentId
      )

    /** Turns the store's webhook endpoint at the service on or off (`seedStore` turns it on for each test). */
    const setEndpoint = (status: "enabled" | "disabled") => updateEmbeddedEndpoint(env.sandbox, env.webhook.endpointId, { status })

    describe("embedded card", () => {
      it("gives the storefront only what the SDK needs, and a paid intent places the order", async () => {
        const cart = await createCart(getContainer(), store, 1280)
        const { collectionId, session } = await start(cart.id)
        expect(session.status).toBe("requires_more")
        expect(session.data).toMatchObject({
          paymentIntentId: expect.stringMatching(/^pi_/),
          clientSecret: expect.stringContaining("_secret_"),
          publishableKey: env.sandbox.embedded.publishableKey,
          sdkUrl: `${env.sandbox.url}/sdk/v1.4.0/twpay.js`,
          returnUrl: `${STOREFRONT}/checkout/card/return`,
        })
        const serialized = JSON.stringify(session)
        expect(serialized).not.toContain(env.sandbox.embedded.secretKey)
        expect(serialized).not.toContain(env.webhook.secret)

        const confirmed = await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS)
        expect(confirmed.body.data.status).toBe("succeeded")
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("the signed webhook alone places the order when the shopper never returns", async () => {
        const cart = await createCart(getContainer(), store, 700)
        const { collectionId, session } = await start(cart.id)
        await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS)
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("a decline needs a new intent, and the retry on the same cart succeeds", async () => {
        const cart = await createCart(getContainer(), store, 500)
        const first = await start(cart.id)
        const declined = await confirmCard(env.sandbox, first.session.data.clientSecret, DECLINED)
        expect(declined.status).toBe(402)
        expect(declined.body.error.code).toBe("CARD_DECLINED")
        expect((await completeCart(api, store, cart.id)).status).toBe(400)

        const second = await start(cart.id)
        expect(second.session.data.paymentIntentId).not.toBe(first.session.data.paymentIntentId)
        await confirmCard(env.sandbox, second.session.data.clientSecret, SUCCESS)
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cart.id, second.collectionId)
        const intent = await control(env.sandbox, "GET", `/payment-intents/${first.session.data.paymentIntentId}`)
        expect(["failed", "canceled"]).toContain(intent.status)
      })

      it("3-D Secure: passed", async () => {
        const cart = await createCart(getContainer(), store, 900)
        const { collectionId, session } = await start(cart.id)
        const challenged = await confirmCard(env.sandbox, session.data.clientSecret, THREE_DS)
        expect(challenged.body.data.status).toBe("requiresAction")
        expect((await completeCart(api, store, cart.id)).status).toBe(400)
        await fetch(`${env.sandbox.embedded.baseUrl}/v1/3ds/simulate`, {
          method: "POST",
          headers: { authorization: `Bearer ${env.sandbox.embedded.secretKey}`, "content-type": "application/json" },
          body: JSON.stringify({ paymentIntentId: session.data.paymentIntentId, outcome: "success" }),
        })
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("3-D Secure: cancelled, then the same intent is paid", async () => {
        const cart = await createCart(getContainer(), store, 900)
        const { collectionId, session } = await start(cart.id)
        await confirmCard(env.sandbox, session.data.clientSecret, THREE_DS)
        await fetch(`${env.sandbox.embedded.baseUrl}/v1/3ds/simulate`, {
          method: "POST",
          headers: { authorization: `Bearer ${env.sandbox.embedded.secretKey}`, "content-type": "application/json" },
          body: JSON.stringify({ paymentIntentId: session.data.paymentIntentId, outcome: "cancel" }),
        })
        expect((await control(env.sandbox, "GET", `/payment-intents/${session.data.paymentIntentId}`)).status).toBe("requiresPaymentMethod")
        expect((await completeCart(api, store, cart.id)).status).toBe(400)

        expect((await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS)).body.data.status).toBe("succeeded")
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("`processing`: the order awaits payment, and reconciliation settles it when no webhook comes", async () => {
        const cart = await createCart(getContainer(), store, 1600)
        const { collectionId, session } = await start(cart.id)
        expect((await confirmCard(env.sandbox, session.data.clientSecret, PROCESSING)).body.data.status).toBe("processing")
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        const placed = await orderOfCart(getContainer(), cart.id)
        expect(placed!.payment_collections![0]!.status).toBe("awaiting")

        // The service settles it, but the store's endpoint is down: no webhook arrives.
        await setEndpoint("disabled")
        await control(env.sandbox, "POST", "/clock/advance", { seconds: 21 * 60 })
        expect((await control(env.sandbox, "GET", `/payment-intents/${session.data.paymentIntentId}`)).status).toBe("succeeded")

        await reconcileTwPayments(getContainer(), { force: true })
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })
    })

    describe("payments health", () => {
      it("counts one hosted and one embedded payment placed by their deliveries, one by the shopper's return, and a refund: the metrics move, the page shows them, and a bad signature warns once until it clears", async () => {
        const reader = new InMemoryReader()
        metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
        const changes: unknown[] = []
        checkTwPaymentsHealthWorkflow.hooks.paymentsHealthChanged((payload) => {
          changes.push(payload)
        })
        try {
          const hostedCart = await createCart(getContainer(), store, 910)
          const hosted = await startPayment(api, store, hostedCart.id)
          await payPage(hosted.session.data.checkoutUrl, card(SUCCESS_CARD))
          await expectOneCapturedOrder(getContainer(), hostedCart.id, hosted.collectionId)
          const embeddedCart = await createCart(getContainer(), store, 920)
          const embedded = await start(embeddedCart.id)
          await confirmCard(env.sandbox, embedded.session.data.clientSecret, SUCCESS)
          await expectOneCapturedOrder(getContainer(), embeddedCart.id, embedded.collectionId)
          // A third the shopper's own completion places (its webhook off): core's completion hook records it.
          await quietEmbeddedWebhooks(env.sandbox)
          const returnCart = await createCart(getContainer(), store, 930)
          const returned = await start(returnCart.id)
          await confirmCard(env.sandbox, returned.session.data.clientSecret, SUCCESS)
          expect((await completeCart(api, store, returnCart.id)).data.type).toBe("order")
          await settle()

          const { resourceMetrics } = await reader.collect()
          expect(sumOf(resourceMetrics, METRIC_NAMES.payments, { provider: "hosted-checkout_hosted-checkout", outcome: "captured" })).toBe(1)
          expect(sumOf(resourceMetrics, METRIC_NAMES.payments, { provider: "embedded-card_embedded-card", outcome: "captured" })).toBe(2)
          expect(sumOf(resourceMetrics, METRIC_NAMES.deliveries, { kind: "notification", verdict: "verified" })).toBeGreaterThanOrEqual(1)
          expect(sumOf(resourceMetrics, METRIC_NAMES.deliveries, { kind: "webhook", verdict: "verified" })).toBeGreaterThanOrEqual(1)
          expect(sumOf(resourceMetrics, METRIC_NAMES.paymentToOrder, { path: "delivery" })).toBe(2)

          const admin = await adminToken(api, getContainer())
          const health = async () => (await api.get("/admin/tw-payments/health?window=hour", { headers: admin })).data as HealthResponse
          const before = await health()
          expect(before.figures.payments).toMatchObject({ captured: 3, awaiting: 0, failed: 0, refunded: 0 })
          expect(before.figures.placements.delivery).toMatchObject({ count: 2, share: 2 / 3, p50: expect.any(Number), p95: expect.any(Number) })
          expect(before.figures.placements.return).toMatchObject({ count: 1, share: 1 / 3 })
          expect(before.figures.placements.reconciliation.count).toBe(0)
          expect(before.figures.deliveries.notification.verified).toBeGreaterThanOrEqual(1)
          expect(before.figures.deliveries.webhook).toMatchObject({ verified: expect.any(Number), signature_failed: 0 })
          expect(before.warnings).toEqual([])

          // A delivery signed with a secret the store does not have (rotated at the service only).
          const body = JSON.stringify({ id: "evt_rotated", type: "payment_intent.succeeded", data: { id: embedded.session.data.paymentIntentId } })
          await api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), { headers: { "content-type": "application/json", "svc-signature": sign(body, `whsec_${"r".repeat(48)}`) }, transformRequest: [() => body] })
          await waitFor(async () => (await health()).figures.deliveries.webhook.signature_failed === 1, "the signature failure counted")

          const started = await checkTwPaymentsHealthWorkflow(getContainer()).run({ input: {} })
          expect(started.result.active).toEqual([{ rule: "webhook_signatures_failing", figure: 1, threshold: 1 }])
          await checkTwPaymentsHealthWorkflow(getContainer()).run({ input: {} })
          expect(changes).toEqual([{ started: [{ rule: "webhook_signatures_failing", figure: 1, threshold: 1 }], cleared: [], active: [{ rule: "webhook_signatures_failing", figure: 1, threshold: 1 }] }])
          expect((await health()).warnings).toEqual([{ rule: "webhook_signatures_failing", figure: 1, threshold: 1, startedAt: expect.any(String) }])

          // Past the rules' window (an hour by default) without another failure, it clears, once.
          await checkTwPaymentsHealthWorkflow(getContainer()).run({ input: { now: Date.now() + 2 * 3_600_000 } })
          expect(changes).toHaveLength(2)
          expect(changes[1]).toEqual({ started: [], cleared: ["webhook_signatures_failing"], active: [] })
          expect((await health()).warnings).toEqual([])

          // A refund through core's admin route: refunded on the page and in the metric.
          const [payment] = await paymentsOf(getContainer(), embedded.collectionId)
          await api.post(`/admin/payments/${payment.id}/refund`, { amount: 920 }, { headers: admin })
          await settle()
          expect((await health()).figures.payments.refunded).toBe(1)
          const { resourceMetrics: afterRefund } = await reader.collect()
          expect(sumOf(afterRefund, METRIC_NAMES.payments, { provider: "embedded-card_embedded-card", outcome: "refunded" })).toBe(1)
          expect(sumOf(afterRefund, METRIC_NAMES.payments, { provider: "hosted-checkout_hosted-checkout", outcome: "refunded" })).toBe(0)
        } finally {
          metrics.disable()
        }
      })
    })

    describe("embedded webhooks", () => {
      async function paidIntentEvent(amount: number) {
        const cart = await createCart(getContainer(), store, amount)
        const started = await start(cart.id)
        await confirmCard(env.sandbox, started.session.data.clientSecret, SUCCESS)
        const event = await waitFor(async () => (await eventsOf(started.session.data.paymentIntentId)).find((e) => e.type === "payment_intent.succeeded"), "the succeeded event")
        return { cart, ...started, body: JSON.stringify(event.body) }
      }

      it("a duplicated delivery is processed once", async () => {
        const { cart, collectionId, body } = await paidIntentEvent(610)
        const headers = { "content-type": "application/json", "svc-signature": sign(body, env.webhook.secret) }
        await api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), { headers, transformRequest: [() => body] })
        await api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), { headers, transformRequest: [() => body] })
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("a webhook delayed past the shopper's return changes nothing", async () => {
        const { cart, collectionId, body } = await paidIntentEvent(620)
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
        await api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), {
          headers: { "content-type": "application/json", "svc-signature": sign(body, env.webhook.secret) },
          transformRequest: [() => body],
        })
        await settle()
        const payments = await paymentsOf(getContainer(), collectionId)
        expect(payments).toHaveLength(1)
        expect(payments[0].captures).toHaveLength(1)
      })

      it.each([
        ["forged (another secret)", (body: string) => sign(body, `whsec_${"x".repeat(48)}`)],
        ["stale (signed 10 minutes ago)", (body: string) => sign(body, env.webhook.secret, Math.floor(Date.now() / 1000) - 600)],
        ["tampered (signature of another body)", (body: string) => sign(body.replace("succeeded", "succeeded "), env.webhook.secret)],
        ["unsigned", () => ""],
      ])("a %s webhook is rejected and changes nothing", async (_name, signature) => {
        // The store's endpoint is off for the whole payment: no genuine event reaches it,
        // only the bad one below (any genuine event would be a valid hint to re-read the intent).
        await setEndpoint("disabled")
        const cart = await createCart(getContainer(), store, 630)
        const { collectionId, session } = await start(cart.id)
        await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS)
        const event = await waitFor(async () => (await eventsOf(session.data.paymentIntentId)).find((e) => e.type === "payment_intent.succeeded"), "the event")
        const body = JSON.stringify(event.body)
        await api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), {
          headers: { "content-type": "application/json", "svc-signature": signature(body) },
          transformRequest: [() => body],
        })
        await settle()
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
      })

      it("during a secret rotation, deliveries signed with the new and the old secret are accepted with the old one", async () => {
        const rotated = await fetch(`${env.sandbox.embedded.baseUrl}/v1/webhooks/${env.webhook.endpointId}/rotate-secret`, {
          method: "POST",
          headers: { authorization: `Bearer ${env.sandbox.embedded.secretKey}`, "content-type": "application/json" },
        }).then((r) => r.json())
        expect(rotated.data.secret).not.toBe(env.webhook.secret)

        // The store still runs with the old secret only.
        const cart = await createCart(getContainer(), store, 640)
        const { collectionId, session } = await start(cart.id)
        await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS)
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
        // Every delivery about this intent carried two signatures: the new secret's and the old one's.
        const eventIds = (await eventsOf(session.data.paymentIntentId)).map((e) => e.id)
        const { deliveries } = await control(env.sandbox, "GET", "/webhook-deliveries")
        const signatures = (deliveries as Array<{ eventId: string; attempts: Array<{ requestHeaders: Record<string, string> }> }>)
          .filter((d) => eventIds.includes(d.eventId))
          .flatMap((d) => d.attempts.map((a) => a.requestHeaders["svc-signature"]))
        expect(signatures.length).toBeGreaterThan(0)
        for (const signature of signatures) {
          expect(signature.match(/v1=/g)).toHaveLength(2)
        }
      })
    })
  },
})

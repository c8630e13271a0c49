import { registerWebhookEndpoint } from "../../src/cli/register-webhook-endpoint"
import { EmbeddedCardClient } from "../../src/lib/embedded"
import type { HealthResponse, HealthRule } from "../../src/shared/health-views"
import { card, confirmCard, control, EMBEDDED_HOOK_PATH, EMBEDDED_PROVIDER_ID, payPage, PROVIDER_ID, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { capturedPaymentsOfCartOrder, type ProductionStore, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * The payments health warnings as a merchant meets them: the store's own scheduled jobs (the payments job
 * every minute, the health check half a minute later) on the production profile, the admin's health answer
 * read over HTTP, the sandbox breaking what it breaks in production. The rules here judge the latest 4
 * orders of a 5-minute window, from 2 on; the hook's single run per change is shown in
 * http/hosted-notifications.spec.ts, where the test can register it.
 */
jest.setTimeout(900_000)
const WINDOW_MINUTES = 5
const shop = useProductionStore({ env: { TW_HEALTH_OPTIONS: JSON.stringify({ reconciledOrders: 4, minOrders: 2, windowMinutes: WINDOW_MINUTES }) } })

async function warningsOn(store: ProductionStore): Promise<HealthRule[]> {
  const { data } = await store.api<HealthResponse>("GET", "/admin/tw-payments/health?window=hour", undefined, { headers: await store.adminHeaders() })
  return data.warnings.map((warning) => warning.rule)
}

/** The health check's log lines about a rule, in every process since the store started. */
const logLines = (store: ProductionStore, rule: HealthRule, change: "started" | "cleared") =>
  Object.values(store.logs)
    .flat()
    .filter((line) => line.includes(`medusa-payment-tw health: ${rule} ${change}`))


/** A hosted card payment whose shopper never comes back: only a notification or the reconciliation places its order. */
async function hostedPaidWithoutReturn(store: ProductionStore) {
  const cart = await shopperCart(store)
  const { session } = await startSession(store, cart.id, PROVIDER_ID)
  await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
  return cart.id
}

async function embeddedPaid(store: ProductionStore) {
  const cart = await shopperCart(store)
  const { session } = await startSession(store, cart.id, EMBEDDED_PROVIDER_ID)
  expect((await confirmCard(store.sandbox, session.data.clientSecret, SUCCESS_CARD)).status).toBe(200)
  return cart.id
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("production profile: payments health", () => {
  it("notifications dropped for 5 minutes while shoppers pay: the warning shows within 2 minutes, is logged once, and clears within the rules' window once they flow again", async () => {
    const store = shop.current
    expect(await warningsOn(store)).toEqual([])
    await control(store.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10_000 })
    const dropped = Date.now()
    const carts: string[] = []
    const shoppers = (async () => {
      while (Date.now() - dropped < 5 * 60_000) {
        carts.push(await hostedPaidWithoutReturn(store))
        await sleep(15_000)
      }
    })()
    await waitFor(async () => (await warningsOn(store)).includes("notifications_missing"), "the notifications warning", 2 * 60_000)
    console.log(`[payments health] notifications warning shown ${Math.round((Date.now() - dropped) / 1000)} s after the drop began`)
    await shoppers
    for (const cartId of carts) {
      expect(await capturedPaymentsOfCartOrder(store, cartId, 150_000)).toHaveLength(1)
    }
    expect(await warningsOn(store)).toContain("notifications_missing")
    expect(logLines(store, "notifications_missing", "started")).toHaveLength(1)
    expect(logLines(store, "notifications_missing", "started")[0]).toContain("notifications are not reaching /hooks/payment/")

    // Notifications flow again: the next orders are placed by them, and the warning clears within the window.
    await control(store.sandbox, "DELETE", "/faults")
    const resumed = Date.now()
    for (let i = 0; i < 4; i++) {
      expect(await capturedPaymentsOfCartOrder(store, await hostedPaidWithoutReturn(store))).toHaveLength(1)
    }
    await waitFor(async () => !(await warningsOn(store)).includes("notifications_missing"), "the notifications warning to clear", WINDOW_MINUTES * 60_000 - (Date.now() - resumed))
    console.log(`[payments health] notifications warning cleared ${Math.round((Date.now() - resumed) / 1000)} s after notifications flowed again`)
    expect(logLines(store, "notifications_missing", "started")).toHaveLength(1)
    expect(logLines(store, "notifications_missing", "cleared")).toHaveLength(1)
  })

  it("a webhook secret rotated at the service only: the signature-failure warning shows; it clears once the store is deployed with the new secret", async () => {
    const store = shop.current
    // Rotated twice at the service (the plugin's own registration command does it), so neither secret
    // that signs any more is the one the store has.
    const client = new EmbeddedCardClient({ secretKey: store.sandbox.embedded.secretKey, baseUrl: store.sandbox.embedded.baseUrl })
    const url = `${store.url}${EMBEDDED_HOOK_PATH}`
    await registerWebhookEndpoint(client, url, { rotate: true })
    const newest = await registerWebhookEndpoint(client, url, { rotate: true })
    await client.close()

    const refused = await embeddedPaid(store)
    await waitFor(async () => (await warningsOn(store)).includes("webhook_signatures_failing"), "the signature-failure warning", 2 * 60_000)
    expect(logLines(store, "webhook_signatures_failing", "started")).toHaveLength(1)
    expect(logLines(store, "webhook_signatures_failing", "started")[0]).toContain("webhookSecrets")
    // The reconciliation placed the order meanwhile: no money waits on the webhook.
    expect(await capturedPaymentsOfCartOrder(store, refused, 150_000)).toHaveLength(1)

    // The merchant puts the new secret in the store's configuration and deploys.
    store.env.TW_EMBEDDED_WEBHOOK_SECRETS = newest.secret
    await store.restart("server")
    await store.restart("worker")
    expect(await capturedPaymentsOfCartOrder(store, await embeddedPaid(store))).toHaveLength(1)
    await waitFor(async () => !(await warningsOn(store)).includes("webhook_signatures_failing"), "the signature-failure warning to clear", 3 * 60_000)
    expect(logLines(store, "webhook_signatures_failing", "cleared")).toHaveLength(1)
    const { data } = await store.api<HealthResponse>("GET", "/admin/tw-payments/health?window=hour", undefined, { headers: await store.adminHeaders() })
    expect(data.figures.deliveries.webhook.signature_failed).toBeGreaterThanOrEqual(1)
    expect(data.figures.deliveries.webhook.verified).toBeGreaterThanOrEqual(1)
  })
})

import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { card, payPage, REFUSED_CARD, SUCCESS_CARD } from "../../../integration-tests/helpers/hosted-store"
import { EmbeddedCardProviderService } from "../../../src/providers/embedded-card/service"
import { HostedCheckoutProviderService } from "../../../src/providers/hosted-checkout/service"
import { allowStorefront, demoStorefront, storefrontEnv } from "../storefront-url"

/**
 * `npm run demo -- --storefront-url`: the store the demo configures (medusa-config.ts under the demo's
 * environment) sends every return of both providers to that storefront, and the sandbox lets the card
 * form work there. A host other than localhost, so the sandbox's allowed domains are exercised too.
 */
const SHOP = "https://shop.example"
const quietLogger = { info() {}, warn() {}, error() {}, debug() {} }
let sandbox: SandboxHandle

beforeAll(async () => {
  sandbox = await startSandbox({ tickMs: 0 })
})
afterAll(async () => {
  await sandbox?.close()
})

/** medusa-config.ts as the demo's store loads it: its http settings and both providers' options. */
async function storeConfig(env: NodeJS.ProcessEnv) {
  const saved = { ...process.env }
  Object.assign(process.env, env, { TW_SANDBOX_URL: sandbox.url })
  try {
    let config: { projectConfig: { http: Record<string, string> }; modules: Record<string, { options?: { providers?: Array<{ id: string; options: Record<string, unknown> }> } }> }
    await jest.isolateModulesAsync(async () => {
      config = (await import("../../../medusa-config.js")).default as unknown as typeof config
    })
    const providers = Object.values(config!.modules).flatMap((module) => module.options?.providers ?? [])
    const options = (id: string) => providers.find((provider) => provider.id === id)!.options
    return { http: config!.projectConfig.http, hosted: options("hosted-checkout"), embedded: options("embedded-card") }
  } finally {
    for (const key of Object.keys(process.env)) {
      if (!(key in saved)) {
        delete process.env[key]
      }
    }
    Object.assign(process.env, saved)
  }
}

describe("the demo's storefront", () => {
  it("is the demo's own without the flag, else the flag's or STOREFRONT_URL's origin", () => {
    expect(demoStorefront({ port: 8100 })).toEqual({ url: "http://localhost:8100", own: true })
    expect(demoStorefront({ env: "http://localhost:8000/", port: 8100 })).toEqual({ url: "http://localhost:8000", own: false })
    expect(demoStorefront({ flag: `${SHOP}/`, env: "http://localhost:8000", port: 8100 })).toEqual({ url: SHOP, own: false })
    expect(() => demoStorefront({ flag: "localhost:8000", port: 8100 })).toThrow(/absolute URL/)
    expect(() => demoStorefront({ flag: "http://localhost:8000/tw", port: 8100 })).toThrow(/origin/)
  })

  it("receives every return of both providers, and its origin is allowed for the store and the card form", async () => {
    const storefront = demoStorefront({ flag: SHOP, port: 8100 })
    const { http, hosted, embedded } = await storeConfig(storefrontEnv(storefront, { STORE_CORS: "http://localhost:8100" }))
    expect(http.storeCors.split(",")).toEqual(["http://localhost:8100", SHOP])
    expect(http.authCors.split(",")).toContain(SHOP)

    // Hosted page: the shopper comes back to the storefront after paying and after a refusal.
    const hostedProvider = new HostedCheckoutProviderService({ logger: quietLogger }, hosted as never)
    const page = async (sessionId: string) => String((await hostedProvider.initiatePayment({ amount: 800, currency_code: "twd", data: { session_id: sessionId } })).data!.checkoutUrl)
    expect(await payPage(await page("payses_demo_paid"), card(SUCCESS_CARD))).toBe(`${SHOP}/checkout/hosted/return`)
    expect(await payPage(await page("payses_demo_refused"), card(REFUSED_CARD))).toMatch(new RegExp(`^${SHOP}/checkout/hosted/failed\\?payment_error=`))

    // Card form: the service refuses an intent returning to a host outside the merchant's allowed domains.
    const embeddedProvider = new EmbeddedCardProviderService({ logger: quietLogger }, embedded as never)
    const intent = () => embeddedProvider.initiatePayment({ amount: 800, currency_code: "twd", data: { session_id: "payses_demo_card" } })
    await expect(intent()).rejects.toThrow(/allowed-domain list/)
    expect(await allowStorefront(sandbox.controlUrl, sandbox.defaultMerchant.merchantId, storefront)).toEqual(["localhost", "127.0.0.1", "shop.example"])
    expect((await intent()).data).toMatchObject({ returnUrl: `${SHOP}/checkout/card/return` })
    // The frame may be drawn on the storefront's pages; once allowed, the domain is not added twice.
    const frame = await fetch(`${sandbox.url}/sdk/v1.4.0/frame.html?pk=${sandbox.embedded.publishableKey}`)
    expect(frame.headers.get("content-security-policy")).toContain(`${SHOP}:*`)
    expect(await allowStorefront(sandbox.controlUrl, sandbox.defaultMerchant.merchantId, storefront)).toHaveLength(3)
  })
})

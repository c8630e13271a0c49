import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { SandboxHandle } from "medusa-payment-tw-sandbox"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../scripts/chromium"
import seedDemo from "../../scripts/demo/seed"
import { freePort } from "../../scripts/postgres"
import { startStorefront, type StorefrontHandle } from "../../storefront/server"
import { control, HOOK_PATH } from "../helpers/hosted-store"
import { settle, watchStore } from "../helpers/settle"

/** Where the demo storefront will listen, known before the app boots. */
export interface StorefrontAddress {
  port: number
  url: string
}

/**
 * Picks the storefront's port and sets STOREFRONT_URL (the providers build
 * their return addresses from it at start), with `appEnv`'s variables.
 * Call it at the top level, after useSandbox and before storeTestRunner: its
 * hook must run before the runner boots the app.
 */
export function reserveStorefront(appEnv: () => Record<string, string> = () => ({})): StorefrontAddress {
  const address: StorefrontAddress = { port: 0, url: "" }
  beforeAll(async () => {
    address.port = await freePort()
    address.url = `http://127.0.0.1:${address.port}`
    process.env.STOREFRONT_URL = address.url
    Object.assign(process.env, appEnv())
  })
  return address
}

/** A shopper in the demo storefront; `page` and `pageErrors` are the current test's. */
export interface StorefrontShopper {
  site: StorefrontHandle
  browser: Browser
  page: Page
  publishableKey: string
  /** The page's uncaught errors. */
  readonly pageErrors: string[]
}

export interface StorefrontShopperOptions {
  /** Fields set on the sandbox's merchant along with its notifyUrl, pointed at the store; without it the merchant is left as it is. */
  merchant?: Record<string, unknown>
}

/**
 * The demo store seeded once (the runner snapshots the database after it
 * and restores it before every test), the storefront at
 * `storefront` and Chromium; each test gets a fresh browser context (a new
 * shopper with an empty cart) and ends once every notification and webhook
 * is delivered and acted on, so none runs into the next test's database.
 * Call it in the runner's testSuite.
 */
export function useStorefrontShopper(
  storefront: StorefrontAddress,
  suite: { api: { defaults: { baseURL?: string } }; getContainer: () => MedusaContainer },
  env: { readonly sandbox: SandboxHandle },
  options: StorefrontShopperOptions = {}
): StorefrontShopper {
  const shopper = { pageErrors: [] as string[] } as StorefrontShopper
  let context: BrowserContext | undefined

  beforeAll(async () => {
    const container = suite.getContainer()
    const backendUrl = suite.api.defaults.baseURL!
    await seedDemo({ container, args: [] })
    watchStore(container, env.sandbox)
    const [key] = await container.resolve(Modules.API_KEY).listApiKeys({ type: "publishable" })
    shopper.publishableKey = key.token
    if (options.merchant) {
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${backendUrl}${HOOK_PATH}`, ...options.merchant })
    }
    shopper.site = await startStorefront({ port: storefront.port, host: "127.0.0.1", backendUrl, publishableKey: key.token })
    expect(shopper.site.url).toBe(storefront.url)
    shopper.browser = await launchChromium()
  })

  afterAll(async () => {
    await shopper.browser?.close()
    await shopper.site?.close()
  })

  beforeEach(async () => {
    context = await shopper.browser.newContext({ viewport: { width: 1100, height: 900 } })
    shopper.page = await context.newPage()
    shopper.pageErrors.length = 0
    shopper.page.on("pageerror", (error) => shopper.pageErrors.push(error.message))
  })

  afterEach(async () => {
    await context?.close()
    await settle()
  })

  return shopper
}

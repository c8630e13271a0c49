import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type Browser, chromium, type Frame, type FrameLocator, type Page } from "playwright-core"
import { chromiumPath } from "./chromium-path"
import { DECLINE_CARDS, type EmbeddedSandbox, startEmbeddedSandbox, SUCCESS_CARD, THREE_DS_CARD } from "./embedded-helpers"

/**
 * Spec 4 (SDK) in a real headless Chromium: a tiny checkout page on a second origin
 * (127.0.0.1, another port) loads twpay.js from the sandbox, mounts the payment frame,
 * and pays. Card numbers are typed into the sandbox's iframe only.
 */

const THREE_DS_PAGE_TIMEOUT_MS = 2_500
// Found before any test starts: without Chromium the file fails once, with one line saying what to install.
const CHROMIUM = chromiumPath()

describe("embedded SDK in a browser", () => {
  let sb: EmbeddedSandbox
  let shop: Server
  let shopUrl: string
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    sb = await startEmbeddedSandbox({ threeDsPageTimeoutMs: THREE_DS_PAGE_TIMEOUT_MS })
    shop = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://shop.invalid")
      if (url.pathname === "/checkout") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        res.end(checkoutPage(url.searchParams))
      } else if (url.pathname === "/return") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        res.end(returnPage())
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    })
  }, 60_000)
  beforeEach(async () => {
    page = await browser.newPage()
  })
  afterEach(async () => {
    await page.close()
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => shop.close(() => resolve()))
    await sb.close()
  })

  function checkoutPage(params: URLSearchParams): string {
    const floating = params.get("sdk") === "floating"
    const src = floating ? sb.handle.embedded.sdkFloatingUrl : sb.handle.embedded.sdkUrl
    const integrity = params.get("integrity") ?? sb.handle.embedded.sdkIntegrity
    const tag = floating ? `<script src="${src}"></script>` : `<script src="${src}" integrity="${integrity}" crossorigin="anonymous"></script>`
    return `<!doctype html><html><head><meta charset="utf-8"><title>Test checkout</title>${tag}</head>
<body><h1>Test shop</h1><div id="card"></div><button id="pay">Pay</button><pre id="result"></pre>
<script>
window.__changes = [];
if (window.TwPay) {
  var params = new URLSearchParams(location.search);
  var twpay = TwPay(${JSON.stringify(sb.pk)}, { locale: params.get("locale") || "zh-TW" });
  var elements = twpay.elements({ clientSecret: params.get("cs") });
  var payment = elements.create("payment", { theme: { colorPrimary: "#ff0066", borderRadius: "10px" } });
  payment.on("change", function (e) { window.__changes.push(e); });
  payment.on("ready", function () { window.__ready = true; });
  payment.mount("#card");
  window.twpay = twpay;
  document.getElementById("pay").addEventListener("click", function () {
    document.getElementById("result").textContent = "pending";
    twpay.confirmPayment({ elements: elements, confirmParams: { returnUrl: params.get("returnUrl") } }).then(function (out) {
      document.getElementById("result").textContent = out.error ? "error:" + out.error.code : "resolved";
    });
  });
}
</script></body></html>`
  }

  function returnPage(): string {
    return `<!doctype html><html><head><meta charset="utf-8"><script src="${sb.handle.embedded.sdkUrl}" integrity="${sb.handle.embedded.sdkIntegrity}" crossorigin="anonymous"></script></head>
<body><h1 id="returned">Back at the shop</h1></body></html>`
  }

  async function openCheckout(extra: Record<string, string> = {}, intentOverrides: Record<string, unknown> = {}) {
    const intent = await sb.createIntent({ returnUrl: `${shopUrl}/return`, ...intentOverrides })
    const query = new URLSearchParams({ cs: intent.clientSecret, returnUrl: `${shopUrl}/return?order=42`, ...extra })
    await page.goto(`${shopUrl}/checkout?${query}`)
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true)
    const frame = page.frameLocator('iframe[name="twpay-payment-frame"]')
    return { intent, frame }
  }

  async function typeCard(frame: FrameLocator, number: string) {
    await frame.locator("#cardNumber").fill(number)
    await frame.locator("#cardExpiry").fill("12/39")
    await frame.locator("#cardCvc").fill("123")
  }

  const result = () => page.locator("#result").textContent()

  async function challengeFrame(): Promise<Frame> {
    await page.waitForSelector("#twpay-3ds-overlay iframe#twpay-3ds-frame")
    const handle = await page.$("#twpay-3ds-frame")
    const frame = await handle!.contentFrame()
    await frame!.waitForSelector("#threeds-pass")
    return frame!
  }

  it("loads the pinned script with its integrity attribute; a wrong hash blocks it; the floating path works without one", async () => {
    await openCheckout()
    const tag = await page.locator("script[src*='/sdk/v1.4.0/twpay.js']").evaluate((el) => ({ integrity: el.getAttribute("integrity"), crossorigin: el.getAttribute("crossorigin") }))
    expect(tag).toEqual({ integrity: sb.handle.embedded.sdkIntegrity, crossorigin: "anonymous" })
    expect(await page.evaluate(() => typeof (window as unknown as { TwPay?: unknown }).TwPay)).toBe("function")
    const intent = await sb.createIntent()
    await page.goto(`${shopUrl}/checkout?cs=${intent.clientSecret}&integrity=sha384-${"A".repeat(64)}`)
    expect(await page.evaluate(() => typeof (window as unknown as { TwPay?: unknown }).TwPay)).toBe("undefined")
    await page.goto(`${shopUrl}/checkout?cs=${intent.clientSecret}&sdk=floating`)
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true)
  })

  it("mounts the sandbox's iframe with the card inputs, themed and localised; change reports valid", async () => {
    const { frame } = await openCheckout({ locale: "en" })
    const src = await page.locator('iframe[name="twpay-payment-frame"]').getAttribute("src")
    expect(src?.startsWith(`${sb.url}/sdk/v1.4.0/frame.html?pk=${sb.pk}#`)).toBe(true)
    // the card inputs are not part of the checkout page
    expect(await page.locator("#cardNumber").count()).toBe(0)
    await expect(frame.locator("#label-cardNumber").textContent()).resolves.toBe("Card number")
    expect(await frame.locator("html").evaluate((el) => getComputedStyle(el).getPropertyValue("--tw-primary").trim())).toBe("#ff0066")
    await frame.locator("#cardNumber").fill("4242 4242")
    await frame.locator("#cardNumber").fill(SUCCESS_CARD)
    await frame.locator("#cardExpiry").fill("12/39")
    const changes = () => page.evaluate(() => (window as unknown as { __changes: { valid: boolean; brand: string | null }[] }).__changes)
    expect((await changes()).at(-1)?.valid).toBe(false)
    await frame.locator("#cardCvc").fill("123")
    await page.waitForFunction(() => (window as unknown as { __changes: { valid: boolean }[] }).__changes.at(-1)?.valid === true)
    expect((await changes()).at(-1)).toMatchObject({ elementType: "payment", valid: true, brand: "visa" })
    // a number failing the Luhn check is not valid
    await frame.locator("#cardNumber").fill("4242424242424241")
    await page.waitForFunction(() => (window as unknown as { __changes: { valid: boolean }[] }).__changes.at(-1)?.valid === false)
    const { frame: zh } = await openCheckout()
    await expect(zh.locator("#label-cardNumber").textContent()).resolves.toBe("卡號")
  })

  it("success: full-page redirect to returnUrl with payment_intent, payment_intent_client_secret and redirect_status=succeeded", async () => {
    const { intent, frame } = await openCheckout()
    await typeCard(frame, SUCCESS_CARD)
    await page.click("#pay")
    await page.waitForURL(/\/return\?/)
    const url = new URL(page.url())
    expect(url.origin).toBe(shopUrl)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      order: "42",
      payment_intent: intent.id,
      payment_intent_client_secret: intent.clientSecret,
      redirect_status: "succeeded",
    })
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("succeeded")
    // the return page re-reads the status with the publishable key
    const read = await page.evaluate(
      (cs) => (window as unknown as { TwPay: (pk: string) => { retrievePaymentIntent: (cs: string) => Promise<unknown> } }).TwPay("pk_sandbox_demo_shop_000001").retrievePaymentIntent(cs),
      intent.clientSecret
    )
    expect(read).toEqual({ paymentIntent: { id: intent.id, status: "succeeded", amount: intent.amount, currency: "TWD" } })
  })

  it("a decline resolves { error: { code } } and does not redirect", async () => {
    const [card, code] = DECLINE_CARDS[0]
    const { intent, frame } = await openCheckout()
    await typeCard(frame, card)
    await page.click("#pay")
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("error:"))
    expect(await result()).toBe(`error:${code}`)
    expect(page.url()).toContain("/checkout?")
    expect(await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).toMatchObject({ status: "failed", lastPaymentError: { code } })
    const read = await page.evaluate((cs) => (window as unknown as { twpay: { retrievePaymentIntent: (cs: string) => Promise<unknown> } }).twpay.retrievePaymentIntent(cs), intent.clientSecret)
    expect(read).toEqual({ paymentIntent: expect.objectContaining({ status: "failed", lastPaymentError: expect.objectContaining({ code }) }) })
  })

  it("incomplete card data is refused in the frame, without any API call", async () => {
    const { intent, frame } = await openCheckout()
    await frame.locator("#cardNumber").fill(SUCCESS_CARD)
    await page.click("#pay")
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("error:"))
    expect(await result()).toBe("error:INVALID_REQUEST")
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("created")
  })

  it("3-D Secure challenge in an overlay, passed: redirect with redirect_status=succeeded", async () => {
    const { intent, frame } = await openCheckout()
    await typeCard(frame, THREE_DS_CARD)
    await page.click("#pay")
    const challenge = await challengeFrame()
    expect(new URL(challenge.url()).origin).toBe(sb.url)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("requiresAction")
    await challenge.click("#threeds-pass")
    await page.waitForURL(/\/return\?/)
    expect(new URL(page.url()).searchParams.get("redirect_status")).toBe("succeeded")
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("succeeded")
  })

  it("3-D Secure cancelled: error 3DS_CANCELED, then the same intent is paid", async () => {
    const { intent, frame } = await openCheckout()
    await typeCard(frame, THREE_DS_CARD)
    await page.click("#pay")
    await (await challengeFrame()).click("#threeds-cancel")
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("error:"))
    expect(await result()).toBe("error:3DS_CANCELED")
    expect(await page.locator("#twpay-3ds-overlay").count()).toBe(0)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("requiresPaymentMethod")
    await frame.locator("#cardNumber").fill(SUCCESS_CARD)
    await page.click("#pay")
    await page.waitForURL(/\/return\?/)
    expect(new URL(page.url()).searchParams.get("payment_intent")).toBe(intent.id)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("succeeded")
  })

  it("3-D Secure left alone times out (real-time page timeout): error 3DS_TIMEOUT; failure: 3DS_FAILED", async () => {
    const { intent, frame } = await openCheckout()
    await typeCard(frame, THREE_DS_CARD)
    await page.click("#pay")
    await challengeFrame()
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.startsWith("error:"), undefined, { timeout: THREE_DS_PAGE_TIMEOUT_MS + 5_000 })
    expect(await result()).toBe("error:3DS_TIMEOUT")
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("requiresPaymentMethod")
    await page.click("#pay")
    await (await challengeFrame()).click("#threeds-fail")
    await page.waitForFunction(() => document.getElementById("result")?.textContent === "error:3DS_FAILED")
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("failed")
  })
})

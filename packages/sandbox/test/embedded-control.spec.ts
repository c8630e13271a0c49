import { createHash } from "node:crypto"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { type EmbeddedSandbox, PROCESSING_SUCCEEDS_CARD, startEmbeddedSandbox, SUCCESS_CARD, WebhookReceiver } from "./embedded-helpers"

/** Embedded parts of the control API, persistence, reset, the SDK files, the CLI and the README. */

describe("embedded control, persistence and SDK files", () => {
  let sb: EmbeddedSandbox

  beforeAll(async () => {
    sb = await startEmbeddedSandbox()
  })
  afterAll(() => sb.close())

  it("serves the pinned SDK with a fixed sha384 integrity and CORS for <script crossorigin>; the floating path the same bytes", async () => {
    const pinned = await fetch(sb.handle.embedded.sdkUrl, { headers: { origin: "http://localhost:3000" } })
    expect(pinned.status).toBe(200)
    expect(pinned.headers.get("content-type")).toBe("application/javascript; charset=utf-8")
    expect(pinned.headers.get("access-control-allow-origin")).toBe("*")
    expect(pinned.headers.get("cross-origin-resource-policy")).toBe("cross-origin")
    expect(pinned.headers.get("cache-control")).toContain("immutable")
    const bytes = Buffer.from(await pinned.arrayBuffer())
    expect(`sha384-${createHash("sha384").update(bytes).digest("base64")}`).toBe(sb.handle.embedded.sdkIntegrity)
    expect(bytes.toString("utf8")).not.toContain(sb.url)
    const floating = await fetch(sb.handle.embedded.sdkFloatingUrl)
    expect(floating.headers.get("access-control-allow-origin")).toBe("*")
    expect(floating.headers.get("cache-control")).toBe("public, max-age=300")
    expect(Buffer.from(await floating.arrayBuffer()).equals(bytes)).toBe(true)
    expect((await fetch(`${sb.url}/sdk/v1.3.0/twpay.js`)).status).toBe(404)
  })

  it("the payment frame may only be framed by the key's allowed domains", async () => {
    const frame = await fetch(`${sb.url}/sdk/v1.4.0/frame.html?pk=${sb.pk}`)
    expect(frame.status).toBe(200)
    expect(frame.headers.get("content-security-policy")).toBe("frame-ancestors http://localhost:* https://localhost:* http://127.0.0.1:* https://127.0.0.1:*")
    const html = await frame.text()
    for (const input of ['id="cardNumber" name="cardNumber"', 'id="cardExpiry" name="cardExpiry"', 'id="cardCvc" name="cardCvc"']) {
      expect(html).toContain(input)
    }
    await sb.merchant("frame-shop", { allowedDomains: ["shop.test"] })
    const account = (await sb.control("GET", "/merchants/frame-shop/embedded")).json
    const other = await fetch(`${sb.url}/sdk/v1.4.0/frame.html?pk=${account.current.publishableKey}`)
    expect(other.headers.get("content-security-policy")).toBe("frame-ancestors https://shop.test:*")
    const unknown = await fetch(`${sb.url}/sdk/v1.4.0/frame.html?pk=pk_unknown`)
    expect(unknown.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
  })

  it("the README documents the current SDK integrity and the default keys", () => {
    const readme = readFileSync(resolve(__dirname, "..", "README.md"), "utf8")
    expect(readme).toContain(sb.handle.embedded.sdkIntegrity)
    expect(readme).toContain(sb.pk)
    expect(readme).toContain(sb.sk)
  })

  it("control views: intents with client secret and card, refunds, webhook endpoints with secrets, events", async () => {
    const intent = await sb.paidIntent()
    const view = (await sb.control("GET", `/payment-intents/${intent.id}`)).json
    expect(view).toMatchObject({ id: intent.id, merchantId: "demo-shop", status: "succeeded", card: { brand: "visa", last4: "4242", testCard: SUCCESS_CARD } })
    expect(view.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_`))
    expect((await sb.control("GET", "/payment-intents?merchantId=demo-shop")).json.paymentIntents.some((i: { id: string }) => i.id === intent.id)).toBe(true)
    expect((await sb.control("GET", "/payment-intents/pi_nope")).status).toBe(404)
    const hook = await sb.ok("POST", "/v1/webhooks", { url: "https://localhost/h" })
    const endpoints = (await sb.control("GET", "/webhook-endpoints?merchantId=demo-shop")).json.webhookEndpoints
    expect(endpoints.find((e: { id: string }) => e.id === hook.id).secret).toBe(hook.secret)
    const events = (await sb.control("GET", "/webhook-events?merchantId=demo-shop&type=payment_intent.succeeded")).json.events
    expect(events.some((e: { body: { data: { id: string } } }) => e.body.data.id === intent.id)).toBe(true)
    await sb.api("DELETE", `/v1/webhooks/${hook.id}`)
  })

  it("reset forgets the embedded state and restores the default merchant's fixed keys", async () => {
    const local = await startEmbeddedSandbox()
    try {
      const intent = await local.createIntent()
      await local.ok("POST", "/v1/webhooks", { url: "https://localhost/h" })
      await local.control("POST", "/merchants/demo-shop/embedded/keys")
      await local.control("POST", "/merchants/demo-shop/embedded/keys/revoke", {})
      expect((await local.control("GET", "/settings")).json.embedded.secretKey).toBe("")
      expect((await local.control("POST", "/reset")).status).toBe(200)
      const settings = (await local.control("GET", "/settings")).json.embedded
      expect(settings.secretKey).toBe("sk_sandbox_demo_shop_secret_0000001")
      expect((await local.api("GET", `/v1/payment-intents/${intent.id}`)).status).toBe(404)
      expect((await local.ok("GET", "/v1/webhooks")).items).toEqual([])
      expect((await local.control("GET", "/webhook-events")).json.events).toEqual([])
    } finally {
      await local.close()
    }
  })

  it("the embedded state survives a restart: intents, keys, endpoints, idempotency records and due work", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-embedded-"))
    const statePath = join(dir, "state.json")
    const receiver = await WebhookReceiver.start()
    try {
      let first = await startEmbeddedSandbox({ statePath })
      const created = await first.api("POST", "/v1/payment-intents", { amount: 10, orderId: "keep", returnUrl: "https://localhost/r" }, { idempotencyKey: "persist-1" })
      const processing = await first.createIntent()
      await first.confirm(processing.clientSecret, PROCESSING_SUCCEEDS_CARD)
      const fresh = (await first.control("POST", "/merchants/demo-shop/embedded/keys")).json
      const hook = await first.ok("POST", "/v1/webhooks", { url: receiver.url, enabledEvents: ["payment_intent.succeeded"] })
      await first.close()

      first = await startEmbeddedSandbox({ statePath })
      const replay = await first.api("POST", "/v1/payment-intents", { amount: 10, orderId: "keep", returnUrl: "https://localhost/r" }, { idempotencyKey: "persist-1" })
      expect(replay.headers.get("idempotency-replayed")).toBe("true")
      expect(replay.text).toBe(created.text)
      expect((await first.api("GET", "/v1/payment-intents?limit=1", undefined, { key: fresh.secretKey })).status).toBe(200)
      expect((await first.ok("GET", `/v1/webhooks/${hook.id}`)).url).toBe(receiver.url)
      expect((await first.ok("GET", `/v1/payment-intents/${processing.id}`)).status).toBe("processing")
      await first.advance(20 * 60)
      expect((await first.ok("GET", `/v1/payment-intents/${processing.id}`)).status).toBe("succeeded")
      expect(receiver.received.map((h) => h.body.data.id)).toEqual([processing.id])
      await first.close()
    } finally {
      await receiver.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("CLI", () => {
  it("prints and writes the embedded settings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-embedded-"))
    const settingsPath = join(dir, "settings.json")
    const cli = resolve(__dirname, "..", "src", "cli.ts")
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--settings-out", settingsPath, "--quiet"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "" },
    })
    let output = ""
    child.stdout.on("data", (c: Buffer) => (output += c.toString()))
    child.stderr.on("data", (c: Buffer) => (output += c.toString()))
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)))
    try {
      // The file may exist before it is fully written: wait until it parses.
      const deadline = Date.now() + 15_000
      let settings: { url: string; embedded: Record<string, string> } | undefined
      while (!settings && Date.now() < deadline) {
        try {
          settings = existsSync(settingsPath) ? JSON.parse(readFileSync(settingsPath, "utf8")) : undefined
        } catch {
          settings = undefined
        }
        if (!settings) {
          await new Promise((r) => setTimeout(r, 100))
        }
      }
      if (!settings) {
        throw new Error(`no settings written; output: ${output}`)
      }
      expect(settings.embedded).toMatchObject({
        baseUrl: settings.url,
        publishableKey: "pk_sandbox_demo_shop_000001",
        secretKey: "sk_sandbox_demo_shop_secret_0000001",
        sdkUrl: `${settings.url}/sdk/v1.4.0/twpay.js`,
        sdkIntegrity: expect.stringMatching(/^sha384-/),
      })
      const res = await fetch(`${settings.embedded.baseUrl}/v1/payment-intents`, { headers: { authorization: `Bearer ${settings.embedded.secretKey}` } })
      expect(res.status).toBe(200)
      expect(output).toContain("pk_sandbox_demo_shop_000001")
      expect(output).toContain(settings.embedded.sdkIntegrity)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) {
        child.kill("SIGKILL")
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})

import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { checkoutBody, startTestSandbox, taipeiAt, type TestSandbox } from "./helpers"

/** The control API, the sandbox clock, reset, persistence across a restart, and the CLI. */

describe("control API", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())

  it("starts with the documented default merchant", async () => {
    const res = await sb.control("GET", "/merchants/demo-shop")
    expect(res.json).toMatchObject({
      merchantId: "demo-shop",
      token: "sandbox-hosted-token-demo-shop-0001",
      paymentServiceActive: true,
      linePayActive: true,
      einvoiceActive: false,
      always3d: false,
      retryFeature: false,
      newEventOption: false,
      production: false,
      notifyUrl: null,
      riskThreshold: null,
    })
    expect(sb.handle.defaultMerchant).toEqual({ merchantId: "demo-shop", token: "sandbox-hosted-token-demo-shop-0001" })
    expect(sb.handle.hostedBaseUrl).toBe(`${sb.handle.url}/hosted-api`)
    expect(sb.handle.checkoutHost).toBe(sb.handle.url)
    expect(sb.handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it("creates and configures merchants, refusing duplicates, bad input and unknown merchants", async () => {
    const created = await sb.control("POST", "/merchants", { merchantId: "tea-house", einvoiceActive: true })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ merchantId: "tea-house", paymentServiceActive: true, einvoiceActive: true })
    expect(created.json.token).toMatch(/^sandbox-hosted-token-tea-house-/)
    expect((await sb.control("POST", "/merchants", { merchantId: "tea-house" })).status).toBe(409)
    expect((await sb.control("POST", "/merchants", { merchantId: "Tea House" })).status).toBe(400)
    expect((await sb.control("POST", "/merchants", { merchantId: "x2", token: sb.token })).status).toBe(409)
    expect((await sb.control("PATCH", "/merchants/nobody", { always3d: true })).status).toBe(404)
    expect((await sb.control("PATCH", "/merchants/tea-house", { alwaysThreeD: true })).status).toBe(400)
    const patched = await sb.control("PATCH", "/merchants/tea-house", { riskThreshold: 5000, notifyUrl: "http://127.0.0.1:9/x" })
    expect(patched.json).toMatchObject({ riskThreshold: 5000, notifyUrl: "http://127.0.0.1:9/x" })
    expect(((await sb.control("GET", "/merchants")).json.merchants as unknown[]).length).toBeGreaterThanOrEqual(2)
    expect((await sb.control("GET", "/no-such-thing")).status).toBe(404)
  })

  it("moves the clock forward only, running due work on the way", async () => {
    const before = await sb.now()
    const { id } = await sb.checkout()
    const advanced = await sb.control("POST", "/clock/advance", { seconds: 3600 })
    expect(Date.parse(advanced.json.now as string) - before).toBeGreaterThanOrEqual(3600_000)
    expect(await sb.page(`/checkout/${id}`)).toMatchObject({ status: 303 })
    const back = await sb.control("PUT", "/clock", { now: new Date(before).toISOString() })
    expect(back.status).toBe(409)
    const target = new Date(before + 86400_000).toISOString()
    expect((await sb.control("PUT", "/clock", { now: target })).json.now).toBe(target)
    expect((await sb.control("POST", "/clock/advance", { seconds: -5 })).status).toBe(400)
    expect((await sb.control("PUT", "/clock", { now: "tomorrow" })).status).toBe(400)
  })

  it("offers read-only views of transactions and subscriptions with internal fields", async () => {
    const { id } = await sb.paidCheckout({ orderId: "view-1" })
    const list = (await sb.control("GET", "/transactions?orderId=view-1")).json.transactions as Record<string, unknown>[]
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ id, origin: "checkout", status: "charged" })
    await sb.ok("POST", "/checkout-subscription", checkoutBody())
    const subs = (await sb.control("GET", "/subscriptions?merchantId=demo-shop")).json.subscriptions as Record<string, unknown>[]
    expect(subs.at(-1)).toMatchObject({ status: "pending", origin: "subscription", merchantId: "demo-shop" })
  })

  it("reset forgets everything and restores the default merchant", async () => {
    const { id } = await sb.checkout()
    await sb.patchMerchant({ notifyUrl: "http://127.0.0.1:9/hook" })
    await sb.control("POST", "/faults", { kind: "drop" })
    const before = await sb.now()
    expect((await sb.control("POST", "/reset")).status).toBe(200)
    expect((await sb.api("GET", `/transactions/${id}`)).json.code).toBe("V0001")
    expect((await sb.control("GET", "/merchants/tea-house")).status).toBe(404)
    expect((await sb.control("GET", "/merchants/demo-shop")).json.notifyUrl).toBeNull()
    expect((await sb.control("GET", "/faults")).json.faults).toEqual([])
    expect(await sb.notifications()).toEqual([])
    // time does not go back
    expect(await sb.now()).toBeGreaterThanOrEqual(before)
  })
})

describe("persistence", () => {
  let dir: string

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sandbox-state-"))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("survives a restart: records, merchants, clock, pending work and the notification log", async () => {
    const statePath = join(dir, "restart.json")
    const first = await startTestSandbox({ statePath, now: new Date(taipeiAt("2025-01-15", 10)) })
    const other = await first.createMerchant({ merchantId: "kept-shop", newEventOption: true })
    const paid = await first.paidCheckout({ orderId: "p-1" })
    const created = (await first.ok("POST", "/checkout-subscription", checkoutBody({ orderId: "p-sub" }))) as { id: string }
    await first.payCard(`/checkout/subscription/${created.id}`)
    const subscriptionId = (await first.notifications({ purpose: "charge" })).at(-1)!.body.subscriptionId as string
    const code = await first.checkout({ allowedPaymentMethods: ["cvs"], orderId: "p-cvs" })
    await first.page(`/checkout/${code.id}`, { method: "cvs" })
    await first.advance(3600)
    const savedNow = await first.now()
    const noticeCount = (await first.notifications()).length
    await first.close()
    expect(existsSync(statePath)).toBe(true)
    expect(JSON.parse(readFileSync(statePath, "utf8")).format).toBe("medusa-payment-tw-sandbox-state")

    // `now` is ignored when state is restored: the saved clock continues
    const second = await startTestSandbox({ statePath, now: new Date("2030-01-01T00:00:00Z") })
    try {
      expect(second.handle.url).not.toBe(first.handle.url)
      const restoredNow = await second.now()
      expect(restoredNow - savedNow).toBeGreaterThanOrEqual(0)
      expect(restoredNow - savedNow).toBeLessThan(60_000)
      expect((await second.transaction(paid.id)).status).toBe("charged")
      expect((await second.api("GET", "/transactions", undefined, { token: other.token })).status).toBe(200)
      expect((await second.notifications()).length).toBe(noticeCount)
      expect((await second.transaction(code.id)).status).toBe("charging")
      expect((await second.control("POST", `/transactions/${code.id}/pay`)).status).toBe(200)
      // the recurring job scheduled before the restart still runs
      await second.setClock(taipeiAt("2025-02-15", 9))
      expect(await second.ok("GET", `/subscriptions/${subscriptionId}`)).toMatchObject({ status: "active", period: 2 })
    } finally {
      await second.close()
    }
  })

  it("writes changes to the file while running (debounced), not only at shutdown", async () => {
    const statePath = join(dir, "debounced.json")
    const sb = await startTestSandbox({ statePath })
    try {
      const { id } = await sb.checkout()
      const deadline = Date.now() + 3_000
      while ((!existsSync(statePath) || !readFileSync(statePath, "utf8").includes(id)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(readFileSync(statePath, "utf8")).toContain(id)
    } finally {
      await sb.close()
    }
  })
})

describe("CLI", () => {
  it("prints and writes its settings, serves the API, and saves state on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-"))
    const settingsPath = join(dir, "settings.json")
    const statePath = join(dir, "state.json")
    const cli = resolve(__dirname, "..", "src", "cli.ts")
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--settings-out", settingsPath, "--state", statePath, "--quiet", "--notify-url", "http://127.0.0.1:9/hooks"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "" },
    })
    let output = ""
    child.stdout.on("data", (c: Buffer) => (output += c.toString()))
    child.stderr.on("data", (c: Buffer) => (output += c.toString()))
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)))
    try {
      const deadline = Date.now() + 15_000
      while (!existsSync(settingsPath) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
      }
      const settings = JSON.parse(readFileSync(settingsPath, "utf8"))
      expect(settings).toMatchObject({
        merchantId: "demo-shop",
        token: "sandbox-hosted-token-demo-shop-0001",
        notifyUrl: "http://127.0.0.1:9/hooks",
        statePath,
      })
      expect(settings.hostedBaseUrl).toBe(`${settings.url}/hosted-api`)
      expect(settings.checkoutHost).toBe(settings.url)
      const res = await fetch(`${settings.hostedBaseUrl}/checkout`, {
        method: "POST",
        headers: { authorization: `Bearer ${settings.token}`, "content-type": "application/json" },
        body: JSON.stringify(checkoutBody()),
      })
      const { data } = (await res.json()) as { data: { id: string } }
      expect(output).toContain(settings.hostedBaseUrl)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      expect(readFileSync(statePath, "utf8")).toContain(data.id)
    } finally {
      if (child.exitCode === null) {
        child.kill("SIGKILL")
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  /** The package's bin (the launcher, which runs src/cli.ts here), in `cwd`, with its output kept. */
  function runBin(cwd: string, args: string[]) {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } })
    const out = { stdout: "", stderr: "" }
    child.stdout.on("data", (c: Buffer) => (out.stdout += c.toString()))
    child.stderr.on("data", (c: Buffer) => (out.stderr += c.toString()))
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)))
    return { child, out, exited }
  }
  const BIN = resolve(__dirname, "..", "bin", "medusa-payment-tw-sandbox.js")

  it("in a fresh folder, makes the folders of --settings-out and --state, after its banner", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-fresh-"))
    const { child, out, exited } = runBin(dir, ["--port", "0", "--settings-out", ".sandbox/settings.json", "--state", "data/sandbox/state.json", "--quiet"])
    try {
      const settingsPath = join(dir, ".sandbox", "settings.json")
      const deadline = Date.now() + 20_000
      while (!existsSync(settingsPath) && child.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(out.stderr).toBe("")
      const settings = JSON.parse(readFileSync(settingsPath, "utf8"))
      expect(settings.statePath).toBe("data/sandbox/state.json")
      expect(out.stdout.split("\n")[0]).toMatch(/^medusa-payment-tw-sandbox \d+\.\d+\.\d+: /)
      expect((await fetch(`${settings.controlUrl}/clock`)).status).toBe(200)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      expect(JSON.parse(readFileSync(join(dir, "data", "sandbox", "state.json"), "utf8")).format).toBe("medusa-payment-tw-sandbox-state")
    } finally {
      if (child.exitCode === null) {
        child.kill("SIGKILL")
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it("prints its banner before a failure, then one line that says what failed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-fail-"))
    try {
      const { out, exited } = runBin(dir, ["--port", "70000"])
      expect(await exited).toBe(1)
      expect(out.stdout).toMatch(/^medusa-payment-tw-sandbox \d+\.\d+\.\d+: /)
      expect(out.stderr.trim()).toBe("[sandbox] cannot run: invalid port: 70000")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it("is published with its launcher as the bin and without an install-time script", () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, "..", "package.json"), "utf8"))
    expect(manifest.bin).toEqual({ "medusa-payment-tw-sandbox": "bin/medusa-payment-tw-sandbox.js" })
    expect(manifest.files).toEqual(expect.arrayContaining(["bin", "dist"]))
    // A store that installs the package must not be asked to approve a build.
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([])
    expect(manifest.scripts.prepack).toBeDefined()
    expect(statSync(BIN).mode & 0o111).not.toBe(0)
  })
})

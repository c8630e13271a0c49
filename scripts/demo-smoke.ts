/**
 * Proves `npm run demo` end to end: it comes up, the admin login it prints
 * works, the store and the sandbox answer with the printed settings, the
 * storefront lists the seeded products in a real browser, and Ctrl-C (SIGINT)
 * stops everything it started. Run by .ci/run.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { join } from "node:path"
import { launchChromium } from "./chromium"
import { freePort } from "./postgres"

const SETTINGS = join(process.cwd(), ".demo", "settings.json")
const SEEDED_PRODUCTS = ["Oolong Tea, 150 g", "Pineapple Cakes, box of 10", "Bubble Tea Kit"]
const fail = (message: string): never => {
  throw new Error(message)
}

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init)
  if (!res.ok) {
    fail(`${init?.method ?? "GET"} ${url} answered ${res.status}: ${await res.text()}`)
  }
  return res.json()
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" })
    socket.once("connect", () => resolve(!socket.destroy()))
    socket.once("error", () => resolve(false))
  })

/** The storefront's home page, drawn by its browser code through the store API, lists the seeded products. */
async function checkStorefront(url: string) {
  const home = await fetch(url)
  if (!home.ok || !(await home.text()).includes('id="product-list"')) {
    fail(`storefront home page at ${url} answered ${home.status} without the product list`)
  }
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(url)
    await page.waitForSelector("body[data-ready]")
    const titles = await page.locator('[data-testid="product-card"] h2').allTextContents()
    for (const seeded of SEEDED_PRODUCTS) {
      if (!titles.includes(seeded)) {
        fail(`the storefront lists ${JSON.stringify(titles)}, not the seeded "${seeded}"`)
      }
    }
  } finally {
    await browser.close()
  }
}

async function main() {
  rmSync(SETTINGS, { force: true })
  const [port, sandboxPort, storefrontPort] = [await freePort(), await freePort(), await freePort()]
  const demo = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
    env: { ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), STOREFRONT_PORT: String(storefrontPort) },
    stdio: ["ignore", "inherit", "inherit"],
  })
  let databasePort: number | undefined
  const exited = new Promise<number | null>((resolve) => demo.once("exit", (code) => resolve(code)))

  try {
    const deadline = Date.now() + 8 * 60_000
    while (!existsSync(SETTINGS)) {
      if (demo.exitCode !== null || Date.now() > deadline) {
        fail("the demo did not come up")
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    const settings = JSON.parse(readFileSync(SETTINGS, "utf8"))
    const store = settings.store.url
    databasePort = Number(new URL(settings.database.url).port)

    const { token } = await json(`${store}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings.admin),
    })
    const { user } = await json(`${store}/admin/users/me`, { headers: { authorization: `Bearer ${token}` } })
    if (user.email !== settings.admin.email) {
      fail(`logged in as ${user.email}, expected ${settings.admin.email}`)
    }
    const { regions } = await json(`${store}/store/regions`, { headers: { "x-publishable-api-key": settings.store.publishableKey } })
    if (!regions.some((r: { name: string; currency_code: string }) => r.name === "Taiwan" && r.currency_code === "twd")) {
      fail("the seeded TWD region Taiwan is missing")
    }
    const admin = await fetch(settings.store.admin)
    if (!admin.ok) {
      fail(`admin UI at ${settings.store.admin} answered ${admin.status}`)
    }
    const sandbox = await json(`${settings.sandbox.control}/settings`)
    if (sandbox.merchantId !== settings.sandbox.merchant.merchantId) {
      fail("the sandbox does not run the printed merchant")
    }
    await checkStorefront(settings.storefront.url)
    console.log(`[demo-smoke] admin login, store, admin UI, sandbox and storefront OK`)
  } finally {
    demo.kill("SIGINT")
  }

  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("timeout"), 60_000))])
  if (code === "timeout") {
    demo.kill("SIGKILL")
    fail("the demo did not stop within 60 s of Ctrl-C")
  }
  for (const open of [port, sandboxPort, storefrontPort, databasePort ?? 0]) {
    if (await portOpen(open)) {
      fail(`port ${open} still open after Ctrl-C`)
    }
  }
  console.log(`[demo-smoke] stopped cleanly (exit ${code})`)
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`[demo-smoke] FAILED: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
)

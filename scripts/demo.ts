/**
 * `npm run demo`: PostgreSQL (embedded, or DATABASE_URL), the sandbox, a
 * seeded Medusa store pointed at it, and the demo storefront. Prints every URL
 * and credential, writes them to .demo/settings.json, and stops everything on Ctrl-C.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import pg from "pg"
import { registerWebhookEndpoint } from "../src/cli/webhook-endpoint"
import { EmbeddedCardClient } from "../src/lib/embedded"
import { startSandbox } from "medusa-payment-tw-sandbox"
import { startStorefront } from "../storefront/server"
import { startPostgres } from "./postgres"

const ROOT = process.cwd()
const DEMO_DIR = join(ROOT, ".demo")
const PORT = Number(process.env.PORT || 9000)
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010)
const STOREFRONT_PORT = Number(process.env.STOREFRONT_PORT || 8000)
const ADMIN = { email: process.env.DEMO_ADMIN_EMAIL || "admin@medusa-payment-tw.test", password: process.env.DEMO_ADMIN_PASSWORD || "demo-admin-2026" }
const DATABASE = "medusa_payment_tw_demo"

const log = (message: string) => console.log(`[demo] ${message}`)
const stops: Array<() => Promise<unknown> | unknown> = []

async function database(): Promise<string> {
  if (process.env.DATABASE_URL) {
    return process.env.DATABASE_URL
  }
  log("starting embedded PostgreSQL (.demo/pg)")
  const started = await startPostgres({ dir: join(DEMO_DIR, "pg"), port: Number(process.env.DEMO_PG_PORT) || undefined, persistent: true })
  stops.push(() => started.pg.stop())
  const client = new pg.Client({ connectionString: started.url("postgres") })
  await client.connect()
  const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [DATABASE])
  if (!rowCount) {
    await client.query(`create database "${DATABASE}"`)
  }
  await client.end()
  return started.url(DATABASE)
}

function medusa(args: string[], env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, ["node_modules/@medusajs/cli/cli.js", ...args], { cwd: ROOT, env, stdio: "inherit" })
  if (run.status !== 0) {
    throw new Error(`medusa ${args[0]} failed (exit ${run.status})`)
  }
}

async function publishableKey(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const { rows } = await client.query("select token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
  await client.end()
  return rows[0]?.token
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Medusa exited early (code ${child.exitCode})`)
    }
    try {
      if ((await fetch(`${url}/health`)).ok) {
        return
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  throw new Error(`Medusa did not answer ${url}/health within ${timeoutMs / 1000} s`)
}

async function main() {
  await mkdir(DEMO_DIR, { recursive: true })
  const databaseUrl = await database()
  const storeUrl = `http://localhost:${PORT}`
  // The hosted page sends the shopper back here, so it must be the address the shopper browses.
  const storefrontUrl = `http://localhost:${STOREFRONT_PORT}`

  const sandbox = await startSandbox({
    port: SANDBOX_PORT,
    host: "127.0.0.1",
    statePath: join(DEMO_DIR, "sandbox-state.json"),
    notifyUrl: `${storeUrl}/hooks/payment/hosted-checkout_hosted-checkout`,
  })
  stops.unshift(() => sandbox.close())
  log(`sandbox listening on ${sandbox.url}`)

  // The store's embedded-card webhook endpoint, registered as a merchant would; its secret is shown once.
  const embeddedClient = new EmbeddedCardClient({ secretKey: sandbox.embedded.secretKey, baseUrl: sandbox.embedded.baseUrl })
  const webhook = await registerWebhookEndpoint(embeddedClient, `${storeUrl}/hooks/payment/embedded-card_embedded-card`)
  await embeddedClient.close()

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    MEDUSA_DISABLE_TELEMETRY: "true",
    TW_SANDBOX_URL: sandbox.url,
    STOREFRONT_URL: storefrontUrl,
    TW_EMBEDDED_WEBHOOK_SECRETS: webhook.secret,
    TW_EMBEDDED_SDK_INTEGRITY: sandbox.embedded.sdkIntegrity,
  }
  log("running migrations")
  medusa(["db:migrate"], env)
  log("seeding the store")
  medusa(["exec", "./scripts/demo/seed.ts"], env)
  const existing = spawnSync(process.execPath, ["node_modules/@medusajs/cli/cli.js", "user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: ROOT, env, encoding: "utf8" })
  if (existing.status !== 0 && !/already exists/i.test(existing.stdout + existing.stderr)) {
    throw new Error(`creating the admin user failed:\n${existing.stderr}`)
  }

  log("starting Medusa")
  const server = spawn(process.execPath, ["node_modules/@medusajs/cli/cli.js", "develop"], { cwd: ROOT, env, stdio: "inherit", detached: true })
  stops.unshift(
    () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null) {
          return resolve()
        }
        server.once("exit", () => resolve())
        process.kill(-server.pid!, "SIGTERM")
      })
  )
  await waitForHealth(storeUrl, server)

  const key = await publishableKey(databaseUrl)
  const storefront = await startStorefront({ port: STOREFRONT_PORT, host: "127.0.0.1", backendUrl: storeUrl, publishableKey: key })
  stops.unshift(() => storefront.close())
  log(`storefront listening on ${storefrontUrl}`)

  const settings = {
    store: { url: storeUrl, admin: `${storeUrl}/app`, publishableKey: key },
    storefront: { url: storefrontUrl },
    admin: ADMIN,
    database: { url: databaseUrl },
    sandbox: {
      url: sandbox.url,
      hostedBaseUrl: sandbox.hostedBaseUrl,
      checkoutHost: sandbox.checkoutHost,
      control: `${sandbox.url}/_sandbox`,
      merchant: sandbox.defaultMerchant,
    },
  }
  await writeFile(join(DEMO_DIR, "settings.json"), JSON.stringify(settings, null, 2))
  console.log(`
  medusa-payment-tw demo is running  (Ctrl-C stops everything)

  Storefront       ${settings.storefront.url}   (test card 4242 4242 4242 4242, any future expiry, any CVC)
  Store API        ${settings.store.url}
  Admin            ${settings.store.admin}   ${ADMIN.email} / ${ADMIN.password}
  Publishable key  ${settings.store.publishableKey}
  Sandbox          ${settings.sandbox.url}   (control API ${settings.sandbox.control})
  Database         ${databaseUrl}
  Settings JSON    .demo/settings.json
`)
}

let stopping = false
async function stop(code: number) {
  if (stopping) {
    return
  }
  stopping = true
  for (const fn of stops) {
    await Promise.resolve(fn()).catch((error) => console.error(error))
  }
  process.exit(code)
}
process.on("SIGINT", () => void stop(0))
process.on("SIGTERM", () => void stop(0))

main().catch(async (error) => {
  console.error(`[demo] ${error instanceof Error ? error.message : error}`)
  await stop(1)
})

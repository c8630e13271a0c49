import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import pg from "pg"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { registerWebhookEndpoint, type RegisteredEndpoint } from "../../src/cli/register-webhook-endpoint"
import { EmbeddedCardClient } from "../../src/lib/embedded"
import { startCluster, type Cluster } from "../../scripts/cluster"
import { startMedusaProcess, type MedusaProcess } from "../../scripts/medusa-process"
import { freePort } from "../../scripts/postgres"
import { startRedis, type RedisHandle } from "../../scripts/redis"
import { control, EMBEDDED_HOOK_PATH, HOOK_PATH, STOREFRONT, waitFor } from "./hosted-store"
import { medusaCommand, seededDatabase } from "./store-database"

/**
 * The production profile of this repository's store, for tests: a fresh
 * database (migrated, seeded by scripts/demo/seed.ts; see store-database.ts), the sandbox, redis-server
 * (or REDIS_URL), and `medusa start` processes on them. By default one in server mode and one in
 * worker mode (roles `server` and `worker`); with `servers` or `workers` above 1, the cluster
 * profile (scripts/cluster.ts): N servers behind haproxy, whose address is the store's `url` and the
 * one the sandbox notifies, and M workers (roles `server-1`, `server-2`, …, `worker-1`, `worker-2`, …).
 * Nothing runs inside jest's process but the sandbox: tests drive the store over HTTP and read
 * results from the database.
 */

/** The roles of the default topology (one server, one worker). */
export type Role = "server" | "worker"

export interface Topology {
  /** Server processes (default 1); more than one puts them behind haproxy. */
  servers?: number
  /** Worker processes (default 1). */
  workers?: number
  env?: NodeJS.ProcessEnv
}

export interface SeededStore {
  regionId: string
  publishableKey: string
  headers: { "x-publishable-api-key": string }
  /** Variants of the seeded products (stocked, so completion reserves inventory under the lock). */
  variantIds: string[]
  shippingOptionId: string
}

export interface ProductionStore {
  /** The server process's address, or the balancer's in front of several: store API and /hooks/payment/*. */
  url: string
  /** Every process's role: `server` and `worker`, or `server-1`, …, `worker-1`, … in the cluster topology. */
  roles: string[]
  databaseUrl: string
  redisUrl: string
  sandbox: SandboxHandle
  webhook: RegisteredEndpoint
  store: SeededStore
  /** Each role's output since the harness started (restarts append to the same list). */
  logs: Record<string, string[]>
  /** Milliseconds each role took from spawn to /health at its latest start. */
  bootMs: Record<string, number>
  /** Milliseconds each start-up phase took (redis, sandbox, database, both processes booting). */
  timings: Record<string, number>
  /** The processes' environment: a variable set here reaches a role at its next (re)start, as a deploy's configuration change does. */
  env: NodeJS.ProcessEnv
  /** An admin's bearer header (the user made with `medusa user` and signed in, once). */
  adminHeaders(): Promise<{ authorization: string }>
  /** A query on the store's database. */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>
  /** Store API call with the publishable key (and `headers`, say a customer's); throws on an HTTP error unless `allowError`. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown, options?: { allowError?: boolean; headers?: Record<string, string> }): Promise<{ status: number; data: T }>
  /** Stops one role's process (SIGTERM, as a deploy would) and starts it again on the same port. */
  restart(role: string): Promise<void>
  /** `restart` in two halves, to act while a role is down. */
  stopProcess(role: string): Promise<void>
  /** Starts a role's process again on its port (after `stopProcess` or `kill`). */
  startProcess(role: string): Promise<void>
  /** SIGKILL to a role's process group (a crash: no shutdown); resolves once it is gone. */
  kill(role: string): Promise<void>
  stop(): Promise<void>
}

async function json<T>(res: Response, what: string, allowError = false): Promise<{ status: number; data: T }> {
  const text = await res.text()
  if (!res.ok && !allowError) {
    throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`)
  }
  return { status: res.status, data: (text ? JSON.parse(text) : {}) as T }
}

/** What scripts/demo/seed.ts created, read back as a storefront would (plus the key from the database). */
async function seededStore(url: string, sql: ProductionStore["sql"]): Promise<SeededStore> {
  const [key] = await sql<{ token: string }>("select token from api_key where type = 'publishable' and title = 'Demo storefront' and revoked_at is null")
  if (!key) {
    throw new Error("production-store: the seed created no publishable key")
  }
  const headers = { "x-publishable-api-key": key.token }
  const { data: regions } = await json<{ regions: Array<{ id: string; name: string }> }>(await fetch(`${url}/store/regions`, { headers }), "GET /store/regions")
  const region = regions.regions.find((r) => r.name === "Taiwan")
  if (!region) {
    throw new Error("production-store: the seeded Taiwan region is missing")
  }
  const { data: products } = await json<{ products: Array<{ variants: Array<{ id: string }> }> }>(
    await fetch(`${url}/store/products?region_id=${region.id}&fields=id,*variants`, { headers }),
    "GET /store/products"
  )
  const [option] = await sql<{ id: string }>("select id from shipping_option where name = 'Home delivery' and deleted_at is null")
  return {
    regionId: region.id,
    publishableKey: key.token,
    headers,
    variantIds: products.products.flatMap((p) => p.variants.map((v) => v.id)),
    shippingOptionId: option.id,
  }
}

/** The role logs this test file has written (a second store in the file appends to them). */
const roleLogsStarted = new Set<string>()

/**
 * Each role's output as it arrives, to <test file's log>.<role>.log next to the test file's own log
 * (TEST_LOG_FILE, set by integration-tests/setup/test-log.js; scripts/test.mjs prints these paths and
 * their last lines when a test fails). Outside jest, nothing.
 */
function roleLogs(): ((role: string, line: string) => void) | undefined {
  const testLog = process.env.TEST_LOG_FILE
  if (!testLog) {
    return undefined
  }
  mkdirSync(dirname(testLog), { recursive: true })
  return (role, line) => {
    const file = testLog.replace(/\.log$/, `.${role}.log`)
    // eslint-disable-next-line no-control-regex
    const text = `${line.replace(/\x1b\[[0-9;]*m/g, "")}\n`
    if (roleLogsStarted.has(file)) {
      appendFileSync(file, text)
    } else {
      roleLogsStarted.add(file)
      writeFileSync(file, text)
    }
  }
}

/** The store's Medusa processes, by role, in either topology. */
interface StoreProcesses {
  roles: string[]
  logs: Record<string, string[]>
  bootMs(): Record<string, number>
  stopProcess(role: string): Promise<void>
  startProcess(role: string): Promise<void>
  kill(role: string): Promise<void>
  /** Servers first (no new requests), then workers. */
  stop(): Promise<void>
}

/** Today's production profile: `server` on `port`, `worker` on a port of its own, booted side by side. */
async function serverAndWorker(port: number, env: NodeJS.ProcessEnv, undo: Array<() => Promise<unknown>>): Promise<StoreProcesses> {
  const toFile = roleLogs()
  const ports: Record<Role, number> = { server: port, worker: await freePort() }
  const logs: Record<Role, string[]> = { server: [], worker: [] }
  const processes = {} as Record<Role, MedusaProcess>
  const roleOf = (role: string): Role => {
    if (role !== "server" && role !== "worker") {
      throw new Error(`no process ${role}; this store runs server and worker`)
    }
    return role
  }
  const start = async (role: string) => {
    processes[roleOf(role)] = await startMedusaProcess({ mode: roleOf(role), port: ports[roleOf(role)], env, logs: logs[roleOf(role)], echo: toFile && ((line) => toFile(role, line)) })
  }
  const stop = async () => {
    await processes.server?.stop()
    await processes.worker?.stop()
  }
  undo.push(stop)
  const boots = await Promise.allSettled([start("server"), start("worker")])
  const failed = boots.find((boot): boot is PromiseRejectedResult => boot.status === "rejected")
  if (failed) {
    throw failed.reason
  }
  return {
    roles: ["server", "worker"],
    logs,
    bootMs: () => ({ server: processes.server.bootMs, worker: processes.worker.bootMs }),
    stopProcess: (role) => processes[roleOf(role)].stop(),
    startProcess: start,
    kill: (role) => processes[roleOf(role)].crash(),
    stop,
  }
}

/** The cluster profile (scripts/cluster.ts): `servers` behind haproxy on `port`, and `workers`. */
async function cluster(port: number, servers: number, workers: number, env: NodeJS.ProcessEnv, dir: string, undo: Array<() => Promise<unknown>>): Promise<StoreProcesses> {
  const started: Cluster = await startCluster({ servers, workers, env, dir, port, echo: roleLogs() })
  undo.push(() => started.stop())
  const member = (role: string) => {
    const found = started.members().find((m) => m.role === role)
    if (!found) {
      throw new Error(`no process ${role}; this store runs ${started.members().map((m) => m.role).join(", ")}`)
    }
    return found
  }
  const members = started.members().sort((x, y) => x.role.localeCompare(y.role, "en", { numeric: true }))
  return {
    roles: members.map((m) => m.role),
    // The cluster hands each member the same list across restarts.
    logs: Object.fromEntries(members.map((m) => [m.role, m.process.logs])),
    bootMs: () => Object.fromEntries(started.members().map((m) => [m.role, m.process.bootMs])),
    stopProcess: (role) => member(role).process.stop(),
    // `restart` stops the process first, which does nothing once it is gone.
    startProcess: (role) => started.restart(role),
    kill: (role) => started.kill(role),
    stop: () => started.stop(),
  }
}

/**
 * Starts everything; `stop()` undoes it all (also when a step fails half-way).
 * Measured on two busy cores: 21-48 s until both processes answer (they boot side by
 * side), 40-90 s for the four of the cluster topology, plus 70-90 s once per schema to migrate
 * and seed the template database.
 */
export async function startProductionStore({ servers = 1, workers = 1, env: extraEnv = {} }: Topology = {}): Promise<ProductionStore> {
  const undo: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const step of undo.splice(0).reverse()) {
      await step().catch((error) => console.error(`production-store: stopping: ${(error as Error).message}`))
    }
  }
  const timings: Record<string, number> = {}
  let phaseStart = Date.now()
  const phase = (name: string) => {
    timings[name] = Date.now() - phaseStart
    phaseStart = Date.now()
  }
  const clustered = servers > 1 || workers > 1
  try {
    const dir = await mkdtemp(join(tmpdir(), "mptw-production-"))
    undo.push(() => rm(dir, { recursive: true, force: true }))
    const redis: RedisHandle = await startRedis({ dir: join(dir, "redis") })
    undo.push(() => redis.stop())
    phase("redis")

    const sandbox = await startSandbox({ tickMs: 100, notificationTimeoutMs: 3_000, webhookTimeoutMs: 3_000 })
    undo.push(() => sandbox.close())
    // The server's port, or the balancer's: where the sandbox notifies and the embedded webhook goes.
    const port = await freePort()
    const url = `http://localhost:${port}`
    await control(sandbox, "PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${url}${HOOK_PATH}` })
    const client = new EmbeddedCardClient({ secretKey: sandbox.embedded.secretKey, baseUrl: sandbox.embedded.baseUrl })
    const webhook = await registerWebhookEndpoint(client, `${url}${EMBEDDED_HOOK_PATH}`)
    await client.close()
    phase("sandbox")

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      REDIS_URL: redis.url,
      MEDUSA_DISABLE_TELEMETRY: "true",
      MEDUSA_ADMIN_DISABLED: "true",
      TW_SANDBOX_URL: sandbox.url,
      STOREFRONT_URL: STOREFRONT,
      TW_EMBEDDED_WEBHOOK_SECRETS: webhook.secret,
      ...extraEnv,
    }
    const database = await seededDatabase(env)
    undo.push(() => database.drop())
    env.DATABASE_URL = database.url
    phase(database.built ? "database (template migrated and seeded)" : "database (copied from the template)")

    const processes = clustered ? await cluster(port, servers, workers, env, dir, undo) : await serverAndWorker(port, env, undo)
    phase(clustered ? `${servers} server(s), ${workers} worker(s) and haproxy boot` : "server and worker boot")

    const pool = new pg.Pool({ connectionString: database.url, max: 2 })
    undo.push(() => pool.end())
    const sql: ProductionStore["sql"] = async (text, values) => (await pool.query(text, values)).rows
    const store = await seededStore(url, sql)
    const api: ProductionStore["api"] = async (method, path, body, options) =>
      json(
        await fetch(`${url}${path}`, {
          method,
          headers: { ...store.headers, ...(body === undefined ? {} : { "content-type": "application/json" }), ...options?.headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        `${method} ${path}`,
        options?.allowError
      )

    const admin = { email: "admin@medusa-payment-tw.test", password: "production-admin-1" }
    // Made and signed in once: a sign-in hashes the password, too costly for every poll of a test.
    let signedIn: Promise<{ authorization: string }> | undefined
    const adminHeaders = () =>
      (signedIn ??= (async () => {
        await medusaCommand(["user", "-e", admin.email, "-p", admin.password], env)
        const { data } = await json<{ token: string }>(
          await fetch(`${url}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) }),
          "POST /auth/user/emailpass"
        )
        return { authorization: `Bearer ${data.token}` }
      })())

    return {
      url,
      env,
      adminHeaders,
      roles: processes.roles,
      databaseUrl: database.url,
      redisUrl: redis.url,
      sandbox,
      webhook,
      store,
      logs: processes.logs,
      timings,
      get bootMs() {
        return processes.bootMs()
      },
      sql,
      api,
      restart: async (role) => {
        await processes.stopProcess(role)
        await processes.startProcess(role)
      },
      stopProcess: processes.stopProcess,
      startProcess: processes.startProcess,
      kill: processes.kill,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** `startProductionStore()` in beforeAll, `stop()` in afterAll; the getter throws until it is up. */
export function useProductionStore(options?: Parameters<typeof startProductionStore>[0]) {
  let started: ProductionStore | undefined
  beforeAll(async () => {
    started = await startProductionStore(options)
  }, 600_000)
  afterAll(async () => {
    await started?.stop()
  }, 120_000)
  return {
    get current(): ProductionStore {
      if (!started) {
        throw new Error("production store not started")
      }
      return started
    },
  }
}

/** Lines a role printed from `from` on, without colour codes. */
export function linesSince(lines: string[], from: number): string[] {
  // eslint-disable-next-line no-control-regex
  return lines.slice(from).map((line) => line.replace(/\x1b\[[0-9;]*m/g, ""))
}

/**
 * A shopper's cart through the store API: one seeded product, a Taiwanese
 * shipping address and the seeded home delivery, ready to pay.
 */
export async function shopperCart(shop: ProductionStore, variantIndex = 0) {
  const { store, api } = shop
  const { data: created } = await api<{ cart: { id: string } }>("POST", "/store/carts", {
    region_id: store.regionId,
    email: "shopper@example.test",
    items: [{ variant_id: store.variantIds[variantIndex], quantity: 1 }],
  })
  const cartId = created.cart.id
  await api("POST", `/store/carts/${cartId}`, {
    shipping_address: { first_name: "Mei", last_name: "Lin", address_1: "No. 7, Section 5, Xinyi Road", city: "Taipei", postal_code: "110", country_code: "tw" },
  })
  const { data } = await api<{ cart: { id: string; total: number } }>("POST", `/store/carts/${cartId}/shipping-methods`, { option_id: store.shippingOptionId })
  return data.cart
}

/** A payment collection and a session of `providerId` for the cart, through the store API. */
export async function startSession(shop: ProductionStore, cartId: string, providerId: string) {
  const { data: collection } = await shop.api<{ payment_collection: { id: string } }>("POST", "/store/payment-collections", { cart_id: cartId })
  const collectionId = collection.payment_collection.id
  const { data } = await shop.api<{ payment_collection: { payment_sessions: Array<{ id: string; provider_id: string; data: Record<string, string> }> } }>(
    "POST",
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: providerId }
  )
  const session = data.payment_collection.payment_sessions.find((s) => s.provider_id === providerId)
  if (!session) {
    throw new Error(`no ${providerId} session on collection ${collectionId}`)
  }
  return { collectionId, session }
}

export interface CartPayment {
  order_id: string
  payment_id: string
  amount: string
  captured_at: Date | null
  canceled_at: Date | null
  captures: number
  refunds: number
}

/** The payments of the order placed from a cart (none: no order yet). */
export function paymentsOfCartOrder(shop: ProductionStore, cartId: string) {
  return shop.sql<CartPayment>(
    `select oc.order_id, p.id as payment_id, p.amount, p.captured_at, p.canceled_at,
       (select count(*)::int from capture c where c.payment_id = p.id and c.deleted_at is null) as captures,
       (select count(*)::int from refund r where r.payment_id = p.id and r.deleted_at is null) as refunds
     from order_cart oc
     join order_payment_collection opc on opc.order_id = oc.order_id and opc.deleted_at is null
     join payment p on p.payment_collection_id = opc.payment_collection_id and p.deleted_at is null
     where oc.cart_id = $1 and oc.deleted_at is null`,
    [cartId]
  )
}

/** Waits for the order placed from a cart, with every payment of it captured; answers those payments. */
export function capturedPaymentsOfCartOrder(shop: ProductionStore, cartId: string, timeoutMs = 90_000) {
  return waitFor(
    async () => {
      const payments = await paymentsOfCartOrder(shop, cartId)
      return payments.length && payments.every((p) => p.captured_at) ? payments : undefined
    },
    "the cart's order with its payment captured",
    timeoutMs
  )
}

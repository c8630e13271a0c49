import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { registerWebhookEndpoint, type RegisteredEndpoint } from "../../src/cli/webhook-endpoint"
import { EmbeddedCardClient } from "../../src/lib/embedded"
import { startMedusaProcess, type MedusaProcess } from "../../scripts/medusa-process"
import { freePort } from "../../scripts/postgres"
import { startRedis, type RedisHandle } from "../../scripts/redis"
import { control, EMBEDDED_HOOK_PATH, HOOK_PATH, STOREFRONT } from "./hosted-store"
import { seededDatabase } from "./store-database"

/**
 * The production profile of this repository's store, for tests: a fresh
 * database (migrated, seeded by scripts/demo/seed.ts; see store-database.ts), the sandbox, redis-server
 * (or REDIS_URL), and two `medusa start` processes on them, one in server mode
 * and one in worker mode. Nothing runs inside jest's process but the sandbox:
 * tests drive the store over HTTP and read results from the database.
 */

export type Role = "server" | "worker"

export interface SeededStore {
  regionId: string
  publishableKey: string
  headers: { "x-publishable-api-key": string }
  /** Variants of the seeded products (stocked, so completion reserves inventory under the lock). */
  variantIds: string[]
  shippingOptionId: string
}

export interface ProductionStore {
  /** The server process's address: store API and /hooks/payment/*. */
  url: string
  databaseUrl: string
  redisUrl: string
  sandbox: SandboxHandle
  webhook: RegisteredEndpoint
  store: SeededStore
  /** Each role's output since the harness started (restarts append to the same list). */
  logs: Record<Role, string[]>
  /** Milliseconds each role took from spawn to /health at its latest start. */
  bootMs: Record<Role, number>
  /** Milliseconds each start-up phase took (redis, sandbox, database, both processes booting). */
  timings: Record<string, number>
  /** A query on the store's database. */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>
  /** Store API call with the publishable key; throws on an HTTP error unless `allowError`. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown, options?: { allowError?: boolean }): Promise<{ status: number; data: T }>
  /** Stops one role's process (SIGTERM, as a deploy would) and starts it again on the same port. */
  restart(role: Role): Promise<void>
  /** `restart` in two halves, to act while a role is down. */
  stopProcess(role: Role): Promise<void>
  startProcess(role: Role): Promise<void>
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

/**
 * Starts everything; `stop()` undoes it all (also when a step fails half-way).
 * Measured on two busy cores: 21-48 s until both processes answer (they boot side by
 * side), plus 70-90 s once per schema to migrate and seed the template database.
 */
export async function startProductionStore({ env: extraEnv = {} }: { env?: NodeJS.ProcessEnv } = {}): Promise<ProductionStore> {
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
  try {
    const dir = await mkdtemp(join(tmpdir(), "mptw-production-"))
    undo.push(() => rm(dir, { recursive: true, force: true }))
    const redis: RedisHandle = await startRedis({ dir: join(dir, "redis") })
    undo.push(() => redis.stop())
    phase("redis")

    const sandbox = await startSandbox({ tickMs: 100, notificationTimeoutMs: 3_000, webhookTimeoutMs: 3_000 })
    undo.push(() => sandbox.close())
    const ports: Record<Role, number> = { server: await freePort(), worker: await freePort() }
    const url = `http://localhost:${ports.server}`
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

    const logs: Record<Role, string[]> = { server: [], worker: [] }
    const processes = {} as Record<Role, MedusaProcess>
    const start = async (role: Role) => {
      processes[role] = await startMedusaProcess({ mode: role, port: ports[role], env, logs: logs[role] })
    }
    undo.push(async () => {
      // Server first (no new requests), then the worker.
      await processes.server?.stop()
      await processes.worker?.stop()
    })
    const boots = await Promise.allSettled([start("server"), start("worker")])
    const failed = boots.find((boot): boot is PromiseRejectedResult => boot.status === "rejected")
    if (failed) {
      throw failed.reason
    }
    phase("server and worker boot")

    const pool = new pg.Pool({ connectionString: database.url, max: 2 })
    undo.push(() => pool.end())
    const sql: ProductionStore["sql"] = async (text, values) => (await pool.query(text, values)).rows
    const store = await seededStore(url, sql)
    const api: ProductionStore["api"] = async (method, path, body, options) =>
      json(
        await fetch(`${url}${path}`, {
          method,
          headers: { ...store.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        `${method} ${path}`,
        options?.allowError
      )

    return {
      url,
      databaseUrl: database.url,
      redisUrl: redis.url,
      sandbox,
      webhook,
      store,
      logs,
      timings,
      get bootMs() {
        return { server: processes.server.bootMs, worker: processes.worker.bootMs }
      },
      sql,
      api,
      restart: async (role) => {
        await processes[role].stop()
        await start(role)
      },
      stopProcess: (role) => processes[role].stop(),
      startProcess: start,
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

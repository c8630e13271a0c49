import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import fc from "fast-check"
import { type RedisHandle, startRedis } from "../../scripts/redis"
import seedDemo from "../../scripts/demo/seed"
import { adminToken, control, HOOK_PATH, pointEmbeddedWebhooks, useSandbox } from "../helpers/hosted-store"
import { watchStore } from "../helpers/settle"
import { storeTestRunner } from "../helpers/store-runner"
import { cleanUp, moneyCommands, preludes, reconcileAndCheck, runPrelude, setAvailable, type Model, type Real, type World } from "./money-model"

/**
 * The model-based money test (issue 21): random sequences of shopper, service, merchant and attacker
 * actions against the real app and the sandbox, then the reconciliation, then the money invariants
 * (integration-tests/model/money-model.ts). One app for every sequence of a shard; each sequence has carts of its own.
 *
 * Two shards, money-model-1.spec.ts and money-model-2.spec.ts, each with its own app, sandbox and database,
 * run side by side (one app keeps about one core busy): shard k runs its half of the sequences from seed S + k - 1.
 * MONEY_MODEL_SHARDS=1 runs shard 1 alone with every sequence, which is how a failing shard's sequence is replayed.
 *
 * MONEY_MODEL_RUNS (sequences), MONEY_MODEL_SEED (replay), MONEY_MODEL_PATH and MONEY_MODEL_REPLAY_PATH (with the seed: replay only
 * the failing sequence a report names; its commands need both), MONEY_MODEL_MAX_COMMANDS (sequence length),
 * MONEY_MODEL_SHRINK=0 (report the first failing sequence unshrunk), MONEY_MODEL_TRACE=1 (print every sequence),
 * MONEY_MODEL_SURVEY=1 (run every sequence, list each failing one unshrunk at the end),
 * MONEY_MODEL_CVS=0 (no convenience-store codes; by default they are taken on pages, paid at the counter or expired),
 * MONEY_MODEL_EMBEDDED=0 (no embedded card form; by default one-time carts are also paid through payment intents),
 * MONEY_MODEL_SABOTAGE=I1|I2|I3|I4|I5|I6|I7 (the checks' self-test: the harness breaks that invariant; the run must fail),
 * MONEY_MODEL_PROFILE=production (the app on Redis: event bus, workflow engine and locking, as `medusa-config.ts` registers
 * them for REDIS_URL; one process in shared mode). `npm run money-model -- --runs N --seed S [--profile production] [--shards 1]`.
 */
const ALL_RUNS = Number(process.env.MONEY_MODEL_RUNS || 100)
/** scripts/test.mjs picks the seed when none is given, so that both shards start from the same one. */
const BASE_SEED = process.env.MONEY_MODEL_SEED ? Number(process.env.MONEY_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31)
const SHARDS = Number(process.env.MONEY_MODEL_SHARDS || 2)
const MAX_COMMANDS = Number(process.env.MONEY_MODEL_MAX_COMMANDS || 8)
const SHRINK = process.env.MONEY_MODEL_SHRINK !== "0"
const PATH = process.env.MONEY_MODEL_PATH || undefined
/** fast-check's own path through a shrunk list of commands, which `path` alone cannot replay. */
const REPLAY_PATH = process.env.MONEY_MODEL_REPLAY_PATH || undefined
/** MONEY_MODEL_SURVEY=1: never stop at a failing sequence; list every failing one at the end (no shrinking). */
const SURVEY = process.env.MONEY_MODEL_SURVEY === "1"
/** MONEY_MODEL_TRACE=1: print what every passing sequence did, too. */
const TRACE = process.env.MONEY_MODEL_TRACE === "1"
/** Stock available to each sequence at its start (both stocked products). */
const START_STOCK = 2

const PROFILE = process.env.MONEY_MODEL_PROFILE || "default"
/** MONEY_MODEL_CVS=0: no convenience-store codes (see `moneyCommands`). */
const CVS = process.env.MONEY_MODEL_CVS !== "0"
/** MONEY_MODEL_EMBEDDED=0: no embedded payment intents (see `moneyCommands`). */
const EMBEDDED = process.env.MONEY_MODEL_EMBEDDED !== "0"

// Hooks (the app's boot and shutdown) get 10 minutes: a teardown that hangs fails the run instead of
// holding it for hours (once in 50 runs on 2026-11-27). The property has its own, longer timeout.
jest.setTimeout(600_000)
// The reconciliation runs only after a sequence: lost notifications must stay lost until then.
process.env.TW_RECONCILIATION = "off"
// ...and reads at the most the options allow: pacing is not under test, and a sequence holds a handful of sessions.
process.env.TW_RECONCILIATION_RATE = "50"
const env = useSandbox()

/** Shard `shard` (1-based) of the model's sequences: its share of the runs, from its own seed. */
export function moneyModelSuite(shard: number) {
  const RUNS = Math.floor(ALL_RUNS / SHARDS) + (shard <= ALL_RUNS % SHARDS ? 1 : 0)
  const SEED = BASE_SEED + shard - 1
  if (PROFILE === "production") {
    // Before the app boots (the runner's own beforeAll comes later): medusa-config.ts reads REDIS_URL when loaded.
    let redis: RedisHandle | undefined
    beforeAll(async () => {
      redis = await startRedis({ dir: join(mkdtempSync(join(tmpdir(), "mptw-model-")), "redis") })
      process.env.REDIS_URL = redis.url
    }, 120_000)
    afterAll(() => redis?.stop())
  } else if (PROFILE !== "default") {
    throw new Error(`MONEY_MODEL_PROFILE must be default or production, not "${PROFILE}"`)
  }

  storeTestRunner({
    env: {},
    testSuite: ({ api, getContainer }) => {
      it(`money invariants I1 to I7 hold after random sequences (shard ${shard} of ${SHARDS}: ${RUNS} runs, seed ${SEED}, ${PROFILE} profile)`, async () => {
        const world = await buildWorld(api, getContainer())
        const replay = `npm run money-model -- --runs ${RUNS} --seed ${SEED}${PROFILE === "default" ? "" : ` --profile ${PROFILE}`} --shards 1`
        console.log(`money model: ${RUNS} sequences of at most ${MAX_COMMANDS} commands, seed ${SEED}, ${PROFILE} profile (replay: ${replay})`)
        const durations: number[] = []
        /** The trace of the last sequence that failed (the shrunk one, once shrinking ends). */
        let lastFailed: string | undefined
        const surveyed: string[] = []

        const property = fc.asyncProperty(preludes({ embedded: EMBEDDED }), fc.noBias(fc.commands(moneyCommands({ cvs: CVS, embedded: EMBEDDED }), { maxCommands: MAX_COMMANDS, size: "max", replayPath: REPLAY_PATH })), async (prelude, commands) => {
          const started = Date.now()
          await control(env.sandbox, "DELETE", "/faults")
          await setAvailable(world, START_STOCK)
          const model: Model = { carts: [], cards: [] }
          const real: Real = { world, started, trace: [], merchantRefunds: new Set(), forged: [], violations: [] }
          try {
            await runPrelude(prelude, model, real)
            await fc.asyncModelRun(() => ({ model, real }), commands)
            const violations = await reconcileAndCheck(model, real)
            if (violations.length && SURVEY) {
              surveyed.push(`sequence ${durations.length + 1}: ${violations.join("\n  ")}\nwhat ran:\n  ${real.trace.join("\n  ")}`)
            } else if (violations.length) {
              throw new Error(`invariants broken:\n  ${violations.join("\n  ")}`)
            }
            if (TRACE) {
              console.log(`sequence ${durations.length + 1} (${((Date.now() - started) / 1000).toFixed(1)} s):\n  ${real.trace.join("\n  ")}`)
            }
          } catch (error) {
            lastFailed = `${(error as Error).message}\nwhat ran:\n  ${real.trace.join("\n  ")}`
            throw error
          } finally {
            await cleanUp(model, real).catch(() => undefined)
            durations.push(Date.now() - started)
          }
        })

        const startedAll = Date.now()
        const details = await fc.check(property, { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: !SHRINK || PATH !== undefined, verbose: 1 })
        const seconds = (Date.now() - startedAll) / 1000
        const mean = durations.reduce((a, b) => a + b, 0) / Math.max(durations.length, 1) / 1000
        const sorted = [...durations].sort((a, b) => a - b)
        const at = (q: number) => ((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000).toFixed(1)
        console.log(
          `money model (${PROFILE} profile, seed ${SEED}): ${durations.length} sequences run (${details.numRuns} passed before any failure, ${details.numShrinks} shrinks) in ${seconds.toFixed(0)} s: ${mean.toFixed(1)} s per sequence (median ${at(0.5)} s, p90 ${at(0.9)} s, max ${at(1)} s)`
        )
        if (surveyed.length) {
          const message = `money model (survey, seed ${SEED}): ${surveyed.length} of ${durations.length} sequences broke an invariant:\n\n${surveyed.join("\n\n")}`
          console.log(message)
          throw new Error(message)
        }
        if (details.failed) {
          const report = fc.defaultReportMessage(details) ?? "failed"
          const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[1] ?? ""))?.[1]
          const again = `${replay} --path ${details.counterexamplePath}${replayPath ? ` --replay-path ${replayPath}` : ""}${EMBEDDED ? "" : " (with MONEY_MODEL_EMBEDDED=0)"}`
          const message = `money model FAILED (seed ${SEED}):\n${report}\n\nreplay only this sequence: ${again}\n\nthe shrunk sequence's run:\n${lastFailed}`
          console.log(message)
          throw new Error(message)
        }
      }, 4 * 3600_000)
    },
  })
}

/** The shared store; an HTTP error becomes a plain Error (axios errors cannot cross jest's worker boundary). */
async function buildWorld(api: World["api"], container: World["container"]): Promise<World> {
  try {
    return await seedWorld(api, container)
  } catch (error) {
    const e = error as { message: string; config?: { method?: string; url?: string }; response?: { status: number; data: unknown } }
    throw new Error(`setting up the store: ${e.config?.method ?? ""} ${e.config?.url ?? ""} ${e.response?.status ?? ""} ${JSON.stringify(e.response?.data ?? e.message)}`)
  }
}

async function seedWorld(api: World["api"], container: World["container"]): Promise<World> {
  watchStore(container, env.sandbox)
  // The sandbox is this run's own, fresh: no reset, which would drop the embedded webhook endpoint whose secret the app booted with.
  await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${api.defaults.baseURL}${HOOK_PATH}` })
  await pointEmbeddedWebhooks(env.sandbox, api.defaults.baseURL)
  await seedDemo({ container, args: [] } as unknown as ExecArgs)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: keys } = await query.graph({ entity: "api_key", fields: ["token"], filters: { type: "publishable" } })
  const headers = { "x-publishable-api-key": keys[0].token as string }
  const store = { regionId: "", salesChannelId: "", publishableKey: keys[0].token as string, headers }
  const { data: regions } = await api.get("/store/regions", { headers })
  const region = regions.regions.find((r: { name: string }) => r.name === "Taiwan")
  const { data: products } = await api.get(`/store/products?region_id=${region.id}&fields=*variants,+variants.inventory_items.inventory_item_id`, { headers })
  const variantOf = (handle: string) => products.products.find((p: { handle: string }) => p.handle === handle).variants[0]
  const oolong = variantOf("oolong-tea")
  const box = variantOf("tea-of-the-month")
  const { data: plans } = await api.get(`/store/tw-subscription-plans?product_id=${products.products.find((p: { handle: string }) => p.handle === "tea-of-the-month").id}`, { headers })

  const admin = await adminToken(api, container)
  const customer = await registerCustomer(api, headers, "model-shopper@example.test", "Mei")
  const other = await registerCustomer(api, headers, "model-other@example.test", "Yu")

  return {
    api,
    container,
    sandbox: env.sandbox,
    store,
    admin,
    customer: customer.headers,
    customerId: customer.id,
    other,
    regionId: region.id,
    shippingAddress: { first_name: "Mei", last_name: "Lin", address_1: "No. 7 Xinyi Rd", city: "Taipei", country_code: "tw", postal_code: "110", phone: "0912345678" },
    oolong: { variantId: oolong.id, inventoryItemId: oolong.inventory_items[0].inventory_item_id },
    box: { variantId: box.id, inventoryItemId: box.inventory_items[0].inventory_item_id, planId: plans.plans[0].id },
    cakesVariantId: variantOf("pineapple-cakes").id,
    sabotage: (process.env.MONEY_MODEL_SABOTAGE || undefined) as World["sabotage"],
  }
}

/** A customer account, logged in: its headers (with the publishable key) and id. */
async function registerCustomer(api: World["api"], headers: Record<string, string>, email: string, firstName: string) {
  const password = "customer-password-1"
  const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
  const { data } = await api.post("/store/customers", { email, first_name: firstName, last_name: "Lin" }, { headers: { ...headers, authorization: `Bearer ${registered.token}` } })
  const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
  return { headers: { ...headers, authorization: `Bearer ${login.token}` }, id: data.customer.id as string }
}

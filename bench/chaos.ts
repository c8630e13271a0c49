/**
 * `npm run chaos -- [--n 100] [--profile default|production|cluster]`
 *
 * N shoppers pay in a mix of ways (hosted card paid and declined, hosted cvs
 * paid and expired, embedded card paid and declined, embedded `processing`
 * settling either way, refunds and order cancels from the admin, a shopper
 * paying in two tabs, a stock-out before the payment lands, monthly
 * subscriptions cancelled from all three sides or before being paid, saved-card
 * checkouts, and attackers: a saved card put on a guest's cart, a forged
 * notification) while the fault proxy drops 30% of notifications and webhooks,
 * duplicates 20%, reorders some and answers 5% of service reads with a 5xx or
 * silence, and every Medusa process is SIGKILLed half-way and started again
 * (on the cluster profile instead: one server SIGKILLed at a quarter, the
 * balancer routing around it until it is back, one worker at half-way, and
 * redis-server restarted at three quarters, losing its queue and locks).
 * Then the sandbox clock moves a month, so every live subscription renews at
 * one tick, and the store gets its reconciliation jobs (payments every minute,
 * subscriptions every 5) until store and service agree or the settle time
 * runs out, and the divergence counts of issue 21's invariants I1-I6 are
 * printed, whatever they are.
 *
 * Exit status: 1 for a harness failure; with --strict also when any divergence is left (for CI).
 * Options: --n, --profile, --concurrency (shoppers at once, 4), --seed (1), --return-rate (0.3),
 * --drop (0.3), --duplicate (0.2), --reorder (0.1), --read-faults (0.05), --no-kill (no process fault), --settle S (600), --strict,
 * --out FILE (what it prints; by default .tmp/bench/chaos-<profile>-n<N>-seed<S>-<time>.txt),
 * --logs FILE (every line the Medusa processes printed; by default beside the report, FILE with .medusa.log).
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { parseArgs } from "node:util"
import pLimit from "p-limit"
import { startPostgres } from "../scripts/postgres"
import { divergenceLines, faultLine, logLines, scenarioTable } from "./chaos-report"
import { readChaosCatalog } from "./chaos-catalog"
import { moveClockForRenewals, subscriptionJobRuns } from "./chaos-renewals"
import { chooseScenario, shop, type Shopper, type ShopperContext } from "./chaos-scenarios"
import { compareStoreAndService, type DivergenceReport, divergenceTotal, type RunFacts } from "./divergence"
import { type FaultRates, startFaultProxy } from "./fault-proxy"
import { summarizeLogs } from "./medusa-logs"
import { apiCalls } from "./sandbox-records"
import { besides, defaultOutPath, keepReport, shown } from "./report-file"
import { seededRandom } from "./seeded-random"
import { HarnessError, type Profile, PROFILES, requestJson, startBenchStore } from "./store"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100" },
    profile: { type: "string", default: "default" },
    concurrency: { type: "string", default: "4" },
    seed: { type: "string", default: "1" },
    "return-rate": { type: "string", default: "0.3" },
    drop: { type: "string", default: "0.3" },
    duplicate: { type: "string", default: "0.2" },
    reorder: { type: "string", default: "0.1" },
    "read-faults": { type: "string", default: "0.05" },
    "no-kill": { type: "boolean", default: false },
    settle: { type: "string", default: "600" },
    strict: { type: "boolean", default: false },
    logs: { type: "string" },
    out: { type: "string" },
  },
})

function number(name: string, raw: string | undefined, { min = 0, max = Number.POSITIVE_INFINITY, integer = false } = {}): number {
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    console.error(`[chaos] --${name}: "${raw}" is not a valid value`)
    process.exit(2)
  }
  return value
}

const N = number("n", values.n, { min: 1, integer: true })
const CONCURRENCY = number("concurrency", values.concurrency, { min: 1, integer: true })
const SEED = number("seed", values.seed, { integer: true })
const RETURN_RATE = number("return-rate", values["return-rate"], { max: 1 })
const SETTLE_SECONDS = number("settle", values.settle, { min: 1 })
const RATES: FaultRates = {
  drop: number("drop", values.drop, { max: 1 }),
  duplicate: number("duplicate", values.duplicate, { max: 1 }),
  reorder: number("reorder", values.reorder, { max: 1 }),
  readFault: number("read-faults", values["read-faults"], { max: 1 }),
}
if (!(PROFILES as readonly string[]).includes(values.profile!)) {
  console.error(`[chaos] --profile must be one of ${PROFILES.join(", ")}`)
  process.exit(2)
}
const PROFILE = values.profile as Profile
const OUT = values.out ?? defaultOutPath(`chaos-${PROFILE}-n${N}-seed${SEED}`)
const LOGS = values.logs ?? besides(OUT, "medusa.log")
const ADMIN = { email: "chaos-admin@example.test", password: "chaos-admin-password-1" }
/** Store and service must agree across this long (a reconciliation tick falls inside) before the run calls it settled. */
const STABLE_MS = 70_000
const POLL_MS = 10_000

const started = Date.now()
const say = (line: string) => console.log(`[chaos ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)
const pct = (x: number) => `${Math.round(x * 100)}%`

async function main(): Promise<number> {
  keepReport(OUT)
  const dir = await mkdtemp(join(tmpdir(), "mptw-chaos-"))
  await chmod(dir, 0o755)
  say(`N=${N}, profile ${PROFILE}, seed ${SEED}; scratch in ${dir}`)
  const postgres = await startPostgres({ dir: join(dir, "pg") })
  const shopperRandom = seededRandom(SEED)
  let proxy: Awaited<ReturnType<typeof startFaultProxy>> | undefined
  try {
    const store = await startBenchStore({
      profile: PROFILE,
      postgres,
      dir,
      stock: N + 1000,
      admin: ADMIN,
      env: { TW_RECONCILIATION: "on" },
      route: async ({ storeUrl, sandbox }) => {
        proxy = await startFaultProxy({ storeUrl, sandbox, rates: RATES, random: seededRandom(SEED * 7919 + 1) })
        return { deliveryBase: proxy.url, apiBase: proxy.url }
      },
      say,
    })
    try {
      return await run(store, proxy!, shopperRandom)
    } finally {
      await proxy?.close()
      await store.stop()
    }
  } finally {
    await postgres.pg.stop().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  }
}

async function run(store: Awaited<ReturnType<typeof startBenchStore>>, proxy: Awaited<ReturnType<typeof startFaultProxy>>, random: () => number): Promise<number> {
  // Hundreds of card frames from one address would hit the per-IP browser limits of the spec.
  await store.control("PATCH", `/merchants/${store.sandbox.defaultMerchant.merchantId}/embedded`, {
    rateLimits: { secretPerMinute: 100_000, publishablePerMinutePerIp: 100_000, publishablePerMinutePerKey: 100_000, firewallPer5MinPerIp: 100_000, firewallPer5MinPerKey: 100_000 },
  })
  let up: Promise<void> = Promise.resolve()
  let token: string | undefined
  const ctx: ShopperContext = {
    store,
    catalog: await readChaosCatalog(store),
    random,
    returnRate: RETURN_RATE,
    whenUp: () => up,
    say,
    admin: async () => {
      if (!token) {
        const { data } = await requestJson<{ token?: string }>(
          `${store.url}/auth/user/emailpass`,
          { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) },
          "admin login"
        )
        token = data.token
      }
      return { authorization: `Bearer ${token}` }
    },
  }

  // The process faults, each at a shopper's turn: the whole store SIGKILLed and restarted (one or two
  // processes); on the cluster profile one server (the balancer routes around it), one worker and Redis.
  const faults: Array<{ at: number; what: string; act: () => Promise<void> }> = []
  if (values["no-kill"]) {
    // none
  } else if (PROFILE === "cluster") {
    const crashOne = (role: string) => async () => {
      say(`SIGKILL to ${role} (pid ${store.processes().find((p) => p.role === role)?.pid})`)
      await store.killOne(role)
      // Long enough for the balancer's checks to mark it down and for the work it held to be missed.
      await sleep(10_000)
      await store.restartOne(role)
    }
    faults.push(
      { at: Math.floor(N / 4), what: "server-1 SIGKILLed", act: crashOne("server-1") },
      { at: Math.floor(N / 2), what: "worker-1 SIGKILLed", act: crashOne("worker-1") },
      // Nothing persisted: the queued events and the locks are lost with it.
      { at: Math.floor((3 * N) / 4), what: "redis-server restarted", act: () => store.restartRedis!() }
    )
  } else {
    faults.push({
      at: Math.floor(N / 2),
      what: "Medusa SIGKILLed",
      act: async () => {
        let answering = () => {}
        // Shoppers who find the store down wait on this until it answers again.
        up = new Promise<void>((resolve) => (answering = resolve))
        say(`SIGKILL to every Medusa process (${store.processes().map((p) => `${p.role} ${p.pid}`).join(", ")})`)
        try {
          await store.kill()
          await store.restart()
        } finally {
          answering()
        }
      },
    })
  }
  const faultNotes: Array<{ at: number; note: string }> = []
  const faultRuns: Array<Promise<void>> = []
  const runFault = async ({ at, what, act }: (typeof faults)[number]) => {
    const started = Date.now()
    await act()
    const note = `${what} at shopper ${at + 1}/${N}, back ${((Date.now() - started) / 1000).toFixed(1)} s later`
    faultNotes.push({ at, note })
    say(note)
  }

  say(`${N} shoppers, ${CONCURRENCY} at a time`)
  const limit = pLimit(CONCURRENCY)
  const failures: string[] = []
  const results = await Promise.all(
    Array.from({ length: N }, (_, index) => {
      const scenario = chooseScenario(random)
      return limit(async () => {
        faultRuns.push(...faults.filter((f) => f.at === index).map(runFault))
        try {
          return await shop(ctx, index, scenario)
        } catch (error) {
          failures.push(`shopper ${index} (${scenario}): ${(error as Error).message.slice(0, 300)}`)
          return undefined
        }
      })
    })
  )
  const shoppers = results.filter((s): s is Shopper => !!s)
  say(`shoppers done (${failures.length} could not shop); waiting for cvs counters, processing cards and refunds`)
  await Promise.all(faultRuns)
  const crashNote = faultNotes.sort((a, b) => a.at - b.at).map((f) => f.note).join("; ") || "no process fault (--no-kill)"
  await Promise.all(shoppers.flatMap((s) => (s.deferred ? [s.deferred] : [])))
  // Last, so that no scenario above sees the month pass.
  const renewal = await moveClockForRenewals(store, say)
  const runEnded = Date.now()

  const waitTick = renewal.settleNotBefore > runEnded + SETTLE_SECONDS * 1000
  say(
    `run over; letting the store reconcile (up to ${SETTLE_SECONDS} s` +
      (renewal.live ? `, and not before ${new Date(renewal.settleNotBefore).toISOString()}: one subscription reconciliation after the clock move)` : ")")
  )
  const facts: RunFacts = {
    cartIds: shoppers.filter((s) => s.cartId).map((s) => s.cartId),
    findings: shoppers.flatMap((s) => s.findings),
    forged: shoppers.flatMap((s) => (s.forgedTransactionId ? [{ cartId: s.cartId, transactionId: s.forgedTransactionId }] : [])),
    acceptedOf: proxy.acceptedOf,
  }
  let report: DivergenceReport = await compareStoreAndService(store, facts)
  let lastTotal = divergenceTotal(report)
  say(`divergences: ${lastTotal}`)
  let agreeingSince = lastTotal === 0 ? Date.now() : undefined
  while (Date.now() - runEnded < SETTLE_SECONDS * 1000 || Date.now() < renewal.settleNotBefore) {
    if (agreeingSince !== undefined && Date.now() - agreeingSince >= STABLE_MS && Date.now() >= renewal.settleNotBefore) {
      break
    }
    await sleep(POLL_MS)
    report = await compareStoreAndService(store, facts)
    const total = divergenceTotal(report)
    if (total !== lastTotal) {
      say(`divergences: ${total}`)
      lastTotal = total
    }
    agreeingSince = total === 0 ? (agreeingSince ?? Date.now()) : undefined
  }
  const settledNote =
    agreeingSince !== undefined
      ? `store and service agreed ${((agreeingSince - runEnded) / 1000).toFixed(0)} s after the run and stayed so for ${((Date.now() - agreeingSince) / 1000).toFixed(0)} s`
      : `still diverging ${((Date.now() - runEnded) / 1000).toFixed(0)} s after the run`
  const reads = (await apiCalls(store, "hosted", "GET /transactions/{id}")) + (await apiCalls(store, "embedded", "GET /v1/payment-intents/{id}"))

  const { table, unexpected } = scenarioTable(shoppers, report)
  console.log(
    [
      "",
      `chaos  profile ${PROFILE}  N=${N}  seed ${SEED}  wall ${((Date.now() - started) / 1000).toFixed(0)} s`,
      `faults: ${pct(RATES.drop)} of notifications and webhooks dropped, ${pct(RATES.duplicate)} duplicated, ${pct(RATES.reorder)} reordered, ` +
        `${pct(RATES.readFault)} of service reads answered 5xx or timed out (per request by bench/fault-proxy.ts); ${crashNote}; ` +
        `${pct(RETURN_RATE)} of paying shoppers return and complete the cart themselves`,
      faultLine(proxy.counts),
      `service reads (transactions and payment intents): ${reads}`,
      renewal.live
        ? `renewals: clock moved to ${renewal.dueAt} for ${renewal.live} live subscription(s) (${renewal.ticks} tick(s)); ` +
          `subscription reconciliation ran ${subscriptionJobRuns(store, renewal)} time(s) after it${waitTick ? " (the settle time was stretched to reach it)" : ""}`
        : "renewals: no live subscription at the end of the run; the clock did not move",
      settledNote,
      "",
      table,
      "",
      ...divergenceLines(report, proxy.fatesOf),
      ...(unexpected.length ? ["", `outcomes other than the scenario expects: ${unexpected.length}`, ...unexpected.slice(0, 10).map((u) => `  ${u}`)] : []),
      ...(failures.length || shoppers.some((s) => s.problems.length)
        ? ["", "harness problems:", ...failures.map((f) => `  ${f}`), ...shoppers.flatMap((s) => s.problems.map((p) => `  shopper ${s.index} (${s.scenario}): ${p}`))]
        : []),
      "",
      ...logLines(summarizeLogs(store.logs)),
    ].join("\n")
  )
  await writeFile(LOGS, store.logs.join("\n"))
  console.log(`report: ${shown(OUT)}; the Medusa processes' lines: ${shown(LOGS)}`)
  if (failures.length > N / 10) {
    throw new HarnessError(`${failures.length} of ${N} shoppers could not shop`)
  }
  return values.strict && divergenceTotal(report) > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[chaos] harness failure: ${error instanceof Error ? (error.stack ?? error.message) : error}`)
    process.exit(1)
  }
)

// The table and the PASS/MISS lines `npm run bench:burst` prints for one profile.
import { availableParallelism } from "node:os"
import type { BaselineResult, BurstResult, PhaseResult } from "./burst-phases"
import type { RoundMemory } from "./process-memory"
import { commonMessages } from "./medusa-logs"
import { percentile } from "./percentiles"
import { fmt, textTable } from "./text-table"

/** Issue 24's targets: the plugin's CPU per order against the system provider's, reads per notification, memory growth over rounds. */
export const TARGETS = { cpuRatio: 1.1, readsPerNotification: 1.0, afterRoundRssGrowth: 0.1 }

/** One burst and the baseline that follows it on the same store, and the Medusa processes' memory over both. */
export interface Round {
  burst: BurstResult
  baseline: BaselineResult
  memory: RoundMemory
}

export interface ProfileResult {
  profile: string
  /** `--rounds` of them, in order; the targets on CPU and throughput are judged on their middle. */
  rounds: Round[]
  bootSeconds: number
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN)
const machineCpuPerOrder = (phase: PhaseResult) => ratio(phase.machineCpuSeconds, phase.ordersCreated)
const CORES = availableParallelism()
const OTHER_PARTS: Record<keyof PhaseResult["otherCpu"], string> = { postgres: "PostgreSQL", redis: "Redis", balancer: "haproxy", harness: "this harness and the sandbox" }
/** `server-2` → `server`: a process's kind. */
const kindOf = (role: string) => role.replace(/-\d+$/, "")

/** Medusa CPU seconds per kind of process (shared, server, worker), with how many of that kind ran. */
function cpuByKind({ cpuByMode }: Pick<PhaseResult, "cpuByMode">): Map<string, { seconds: number; count: number }> {
  const kinds = new Map<string, { seconds: number; count: number }>()
  for (const [role, seconds] of Object.entries(cpuByMode)) {
    const kind = kinds.get(kindOf(role)) ?? { seconds: 0, count: 0 }
    kinds.set(kindOf(role), { seconds: kind.seconds + seconds, count: kind.count + 1 })
  }
  return kinds
}
const mark = (ok: boolean) => (ok ? "PASS" : "MISS")

export function readsPerNotification(burst: BurstResult) {
  return ratio(burst.reads, burst.notificationsAccepted)
}

const cpuPerOrder = (phase: PhaseResult) => ratio(phase.cpuSeconds, phase.ordersCreated)
/** A paid order on both sides: the hosted card is captured as it is paid, the system provider's once the merchant captures it. */
const paidOrderCpu = ({ capture, ...baseline }: BaselineResult) => cpuPerOrder(baseline) + ratio(capture.cpuSeconds, capture.captured)
const setupPerCart = ({ setup }: PhaseResult) => ratio(Object.values(setup.cpuByMode).reduce((a, b) => a + b, 0), setup.carts)
const statementsPerOrder = (phase: PhaseResult) => ratio(phase.statements?.total ?? Number.NaN, phase.ordersCreated)
const postgresMsPerStatement = (phase: PhaseResult) => ratio(phase.otherCpu.postgres * 1000, phase.statements?.total ?? Number.NaN)
const cpuRatio = ({ burst, baseline }: Round) => ratio(cpuPerOrder(burst), cpuPerOrder(baseline))
/** The middle value (nearest rank): one phase on this machine can cost a third more or less than the same phase run again. */
const middle = (values: number[]) => percentile(values, 50) ?? Number.NaN

/** One table per round, then, over several rounds, the CPU target judged on the middle ratio. */
export function profileReport({ profile, rounds }: ProfileResult, settings: string): string {
  const tables = rounds.map((round, index) => roundReport(profile, round, rounds.length > 1 ? ` round ${index + 1} of ${rounds.length}` : "", settings))
  if (rounds.length === 1) {
    return tables[0]
  }
  const ratios = rounds.map(cpuRatio)
  const value = middle(ratios)
  const paidRatios = rounds.map(({ burst, baseline }) => ratio(cpuPerOrder(burst), paidOrderCpu(baseline)))
  return [
    ...tables,
    [
      `${mark(value <= TARGETS.cpuRatio)} ${profile}: middle of ${rounds.length} rounds' Medusa CPU per order ratios ${fmt(value)}x (${ratios.map((r) => `${fmt(r)}x`).join(", ")}; target ≤ ${TARGETS.cpuRatio}x); against completion and capture ${fmt(middle(paidRatios))}x (${paidRatios.map((r) => `${fmt(r)}x`).join(", ")})`,
      ...memoryGrowth(rounds),
    ].join("\n"),
  ].join("\n\n")
}

/** The middle round's plugin CPU ratio of a profile, for the summary over profiles. */
export const middleCpuRatio = ({ rounds }: ProfileResult) => middle(rounds.map(cpuRatio))

/** After-round RSS of the last round against the first's, per process: held state grows round by round, garbage does not. */
function memoryGrowth(rounds: Round[]): string[] {
  const first = rounds[0].memory.after
  const last = rounds[rounds.length - 1].memory.after
  return Object.keys(first).map((role) => {
    const growth = ratio(last[role] - first[role], first[role])
    const each = rounds.map((round) => fmt(round.memory.after[role], 0)).join(" → ")
    const heaps = rounds.map((round) => (round.memory.liveHeap[role] === undefined ? "?" : fmt(round.memory.liveHeap[role]!, 0))).join(" → ")
    return `${mark(growth <= TARGETS.afterRoundRssGrowth)} ${role}: RSS after each round ${each} MB (${growth >= 0 ? "+" : ""}${fmt(growth * 100, 1)}% from round 1; target ≤ +${TARGETS.afterRoundRssGrowth * 100}%); live heap after a full GC ${heaps} MB`
  })
}

function memoryTable({ before, peak, after, liveHeap }: RoundMemory): string {
  const rows = Object.keys(before).map((role) => [role, fmt(before[role], 0), fmt(peak[role], 0), fmt(after[role], 0), liveHeap[role] === undefined ? "?" : fmt(liveHeap[role]!, 0)])
  return textTable(["RSS (MB)", "before the burst", "peak", "after the idle wait", "live heap after a full GC"], rows)
}

/** Statement shapes the hosted order runs more (or less) often per order than the system provider's completion. */
function statementDifference(hosted: PhaseResult, system: PhaseResult, top = 16): string[] {
  if (!hosted.statements || !system.statements) {
    return []
  }
  const perOrder = (phase: PhaseResult) => {
    const shapes = new Map<string, number>()
    for (const { calls, query } of phase.statements!.top) {
      const shape = query.replace(/\s+/g, " ").slice(0, 150)
      shapes.set(shape, (shapes.get(shape) ?? 0) + calls / Math.max(1, phase.ordersCreated))
    }
    return shapes
  }
  const [a, b] = [perOrder(hosted), perOrder(system)]
  const differences = [...new Set([...a.keys(), ...b.keys()])]
    .map((shape) => ({ shape, more: (a.get(shape) ?? 0) - (b.get(shape) ?? 0) }))
    .filter(({ more }) => Math.abs(more) >= 0.5)
    .sort((x, y) => Math.abs(y.more) - Math.abs(x.more))
  return [
    "",
    "statements per order, hosted minus system (the capture's, core's completion's and the plugin's own; this harness's lock sampling included):",
    ...differences.slice(0, top).map(({ shape, more }) => `  ${more > 0 ? "+" : ""}${fmt(more, 1)}  ${shape}`),
  ]
}

/** `--cpu-profile`: Medusa CPU ms per order by package, the burst against the system provider's completion. */
function profileTable({ burst, baseline }: Round, top = 14): string[] {
  if (!burst.profile || !baseline.profile) {
    return []
  }
  const perOrder = (phase: PhaseResult, category?: string) =>
    ratio((category ? (phase.profile![category] ?? 0) : Object.values(phase.profile!).reduce((sum, s) => sum + s, 0)) * 1000, phase.ordersCreated)
  const categories = [...new Set([...Object.keys(burst.profile), ...Object.keys(baseline.profile)])].sort(
    (x, y) => Math.abs(perOrder(burst, y) - perOrder(baseline, y)) - Math.abs(perOrder(burst, x) - perOrder(baseline, x))
  )
  const row = (label: string, category?: string) => [label, fmt(perOrder(burst, category), 1), fmt(perOrder(baseline, category), 1)]
  const rows = [...categories.slice(0, top).map((category) => row(category, category)), row("every category (sampled, not idle)")]
  return ["", textTable(["Medusa CPU ms per order by package (self time)", "hosted burst", "system baseline"], rows)]
}

function roundReport(profile: string, round: Round, label: string, settings: string): string {
  const { burst, baseline } = round
  const burstCpu = cpuPerOrder(burst)
  const baseCpu = cpuPerOrder(baseline)
  const rolledBack = burst.logs.failedCompletions.length + burst.ordersDeleted
  const rows: string[][] = [
    ["orders created", `${burst.ordersCreated}/${burst.k}`, `${baseline.ordersCreated}/${baseline.k}`, ""],
    ["carts without order", String(burst.cartsWithoutOrder), String(baseline.cartsWithoutOrder), ""],
    ["carts with more than one order", String(burst.cartsWithSeveralOrders), String(baseline.cartsWithSeveralOrders), ""],
    ["orders rolled back (failed completions + deleted)", `${rolledBack} (${burst.logs.failedCompletions.length} + ${burst.ordersDeleted})`, String(baseline.ordersDeleted), ""],
    ["refunds at the service / refunds in the store", `${burst.refundedAtService} / ${burst.refundsInStore}`, "-", ""],
    ["service reads per notification", `${fmt(readsPerNotification(burst))} (${burst.reads}/${burst.notificationsAccepted})`, "-", ""],
    ["p50 payment→order | complete call (s)", fmt(burst.latency.p50), fmt(baseline.latency.p50), ""],
    ["p95 payment→order | complete call (s)", fmt(burst.latency.p95), fmt(baseline.latency.p95), ""],
    ["Medusa CPU s per order", fmt(burstCpu, 3), fmt(baseCpu, 3), `${fmt(ratio(burstCpu, baseCpu))}x`],
    ["  with the merchant's capture in the admin (a paid order)", fmt(burstCpu, 3), fmt(paidOrderCpu(baseline), 3), `${fmt(ratio(burstCpu, paidOrderCpu(baseline)))}x`],
    ["Medusa CPU s in the phase", fmt(burst.cpuSeconds, 1), fmt(baseline.cpuSeconds, 1), ""],
    ...[...cpuByKind(burst)].map(([kind, { seconds, count }]) => [
      `  per order, ${count} ${kind} process${count > 1 ? "es" : ""}`,
      fmt(ratio(seconds, burst.ordersCreated), 3),
      fmt(ratio(cpuByKind(baseline).get(kind)?.seconds ?? Number.NaN, baseline.ordersCreated), 3),
      "",
    ]),
    ["  of which idle (CPU s/s when idle × phase s)", fmt(burst.idleCpuPerSecond * burst.wallSeconds, 1), fmt(burst.idleCpuPerSecond * baseline.wallSeconds, 1), ""],
    ...(burst.statements && baseline.statements
      ? [
          ["SQL statements per order", fmt(statementsPerOrder(burst), 1), fmt(statementsPerOrder(baseline), 1), `${fmt(ratio(statementsPerOrder(burst), statementsPerOrder(baseline)))}x`],
          // The same statements cost PostgreSQL more CPU when the machine is busier: the machine's share, not the plugin's.
          ["PostgreSQL CPU ms per statement", fmt(postgresMsPerStatement(burst), 3), fmt(postgresMsPerStatement(baseline), 3), ""],
        ]
      : []),
    ["PostgreSQL lock waits, backend ms per order", fmt(ratio(burst.lockWaits.seconds * 1000, burst.ordersCreated), 1), fmt(ratio(baseline.lockWaits.seconds * 1000, baseline.ordersCreated), 1), ""],
    ["machine CPU s per order (every process)", fmt(machineCpuPerOrder(burst), 3), fmt(machineCpuPerOrder(baseline), 3), ""],
    ...(Object.keys(OTHER_PARTS) as (keyof typeof OTHER_PARTS)[]).map((part) => [
      `  of which ${OTHER_PARTS[part]}`,
      fmt(ratio(burst.otherCpu[part], burst.ordersCreated), 3),
      fmt(ratio(baseline.otherCpu[part], baseline.ordersCreated), 3),
      "",
    ]),
    [`machine cores busy (of ${CORES})`, fmt(burst.machineBusyCores), fmt(baseline.machineBusyCores), ""],
    ["error lines in the Medusa logs", String(burst.logs.errorLines.length), String(baseline.logs.errorLines.length), ""],
    ["orders/s", fmt(burst.ordersPerSecond), fmt(baseline.ordersPerSecond), `${fmt(ratio(burst.ordersPerSecond, baseline.ordersPerSecond))}x`],
    ["phase wall time (s)", fmt(burst.wallSeconds, 1), fmt(baseline.wallSeconds, 1), ""],
    ["checkout before the payment, Medusa CPU s per cart", fmt(setupPerCart(burst), 3), fmt(setupPerCart(baseline), 3), ""],
    ...[...cpuByKind(burst.setup)].map(([kind, { seconds, count }]) => [
      `  per cart, ${count} ${kind} process${count > 1 ? "es" : ""}`,
      fmt(ratio(seconds, burst.setup.carts), 3),
      fmt(ratio(cpuByKind(baseline.setup).get(kind)?.seconds ?? Number.NaN, baseline.setup.carts), 3),
      "",
    ]),
    ["  PostgreSQL CPU s per cart", fmt(ratio(burst.setup.postgres, burst.setup.carts), 3), fmt(ratio(baseline.setup.postgres, baseline.setup.carts), 3), ""],
  ]
  const targets = [
    `${mark(burst.ordersCreated === burst.k && burst.cartsWithoutOrder === 0 && burst.cartsWithSeveralOrders === 0)} every paid cart has exactly one order (${burst.ordersCreated}/${burst.paid} paid)`,
    `${mark(rolledBack === 0)} 0 orders rolled back (${rolledBack})`,
    `${mark(burst.refundedAtService === 0 && burst.refundsInStore === 0)} 0 refunded (${burst.refundedAtService} at the service, ${burst.refundsInStore} in the store)`,
    `${mark(burst.logs.errorLines.length === 0)} 0 error lines in the log (${burst.logs.errorLines.length})`,
    `${mark(Math.abs(readsPerNotification(burst) - TARGETS.readsPerNotification) < 0.005)} ${TARGETS.readsPerNotification.toFixed(1)} reads per notification (${fmt(readsPerNotification(burst))})`,
    `${mark(cpuRatio(round) <= TARGETS.cpuRatio)} Medusa CPU per order ≤ ${TARGETS.cpuRatio}x the system provider's completion (${fmt(cpuRatio(round))}x; ${fmt(ratio(burstCpu, paidOrderCpu(baseline)))}x its completion and capture, ${baseline.capture.captured}/${baseline.ordersCreated} captured)`,
  ]
  const waits = burst.lockWaits.top.map((wait) => `  burst lock wait ${fmt(wait.seconds, 1)} s: ${wait.query}`)
  const excerpts = [
    ...commonMessages(burst.logs.errorLines).map((m) => `  burst error x${m.count}: ${m.example.slice(0, 300)}`),
    ...commonMessages(burst.logs.failedCompletions.map((f) => f.reason)).map((m) => `  failed completion x${m.count}: ${m.example.slice(0, 300)}`),
    ...commonMessages(baseline.logs.errorLines).map((m) => `  baseline error x${m.count}: ${m.example.slice(0, 300)}`),
  ]
  return [
    `bench:burst  profile ${profile}${label}  K=${burst.k}  ${settings}`,
    `${burst.paid} pages paid within ${burst.paidSpreadMs} ms at the service (all answered within ${burst.payWindowMs} ms); burst wait ended: ${burst.ended}`,
    "",
    textTable(["", "hosted burst", "system baseline", "ratio"], rows),
    "",
    ...targets,
    "",
    memoryTable(round.memory),
    ...statementDifference(burst, baseline),
    ...profileTable(round),
    ...(waits.length ? ["", "statements that waited longest on a lock:", ...waits] : []),
    ...(excerpts.length ? ["", "log excerpts (most frequent):", ...excerpts] : []),
  ].join("\n")
}

/** Production against default burst orders/s: each profile's middle round, and every round's figures. */
export function throughputComparison(production: ProfileResult, standard: ProfileResult): string {
  const rate = ({ rounds }: ProfileResult) => middle(rounds.map(({ burst }) => burst.ordersPerSecond))
  const value = ratio(rate(production), rate(standard))
  const several = production.rounds.length > 1 || standard.rounds.length > 1
  const each = ({ rounds }: ProfileResult) => rounds.map(({ burst }) => fmt(burst.ordersPerSecond)).join(", ")
  // On a saturated machine orders/s is busy cores over machine CPU per order: the two factors of the ratio.
  const machine = ({ burst }: Round) => `${fmt(burst.machineBusyCores)} of ${CORES} cores busy, ${fmt(machineCpuPerOrder(burst), 3)} machine CPU s per order`
  // What the production burst would reach with every core busy at the CPU per order it measured.
  const ceiling = (round: Round, againstRate: number) => ratio(ratio(CORES, machineCpuPerOrder(round.burst)), againstRate)
  const factors = production.rounds.map((round, index) => {
    const against = standard.rounds[index] ?? standard.rounds[0]
    return `  ${several ? `round ${index + 1}: ` : ""}default burst: ${machine(against)}; production burst: ${machine(round)}; with all ${CORES} cores busy ${fmt(ceiling(round, against.burst.ordersPerSecond))}x`
  })
  return [
    // No target: on a saturated machine this ratio measures the machine (issue 24).
    `production/default burst throughput ${fmt(value)}x (${fmt(rate(production))} vs ${fmt(rate(standard))} orders/s${several ? `, the middle of rounds ${each(production)} and ${each(standard)}` : ""})`,
    ...factors,
  ].join("\n")
}

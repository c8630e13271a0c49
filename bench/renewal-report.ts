// The table and the PASS/MISS lines `npm run bench:burst -- --scenario renewals` prints for one profile.
import { commonMessages } from "./medusa-logs"
import type { RenewalResult } from "./renewal-phase"
import { fmt, textTable } from "./text-table"

export interface RenewalProfileResult {
  profile: string
  renewals: RenewalResult
}

const mark = (ok: boolean) => (ok ? "PASS" : "MISS")

const rolledBack = (r: RenewalResult) => r.ordersDeleted + r.unsettled.length
const errorLines = (r: RenewalResult) => r.setupLogs.errorLines.length + r.logs.errorLines.length
const totalReads = (r: RenewalResult) => Object.values(r.reads).reduce((sum, n) => sum + n, 0)

/** Issue 11's targets: one captured renewal order per subscription, none rolled back, none twice, a clean log. */
function targets(r: RenewalResult): Array<{ ok: boolean; line: string }> {
  return [
    {
      ok: r.capturedRenewals === r.k && r.renewalOrders === r.k && r.subscriptionsWithoutRenewal === 0,
      line: `${r.k} renewal orders, each captured (${r.renewalOrders} orders, ${r.capturedRenewals} captured, ${r.subscriptionsWithoutRenewal} subscriptions without one)`,
    },
    { ok: rolledBack(r) === 0, line: `0 rolled back (${rolledBack(r)})` },
    { ok: r.duplicatePeriods === 0 && r.duplicateFirstOrders === 0, line: `0 duplicates (${r.duplicatePeriods} periods, ${r.duplicateFirstOrders} first orders with more than one order)` },
    { ok: errorLines(r) === 0, line: `0 error lines in the log (${errorLines(r)})` },
  ]
}

export const renewalTargetsMet = (r: RenewalResult) => targets(r).every((t) => t.ok)

export function renewalReport({ profile, renewals: r }: RenewalProfileResult, settings: string): string {
  const reads = totalReads(r)
  const rows: string[][] = [
    ["renewal orders created", `${r.renewalOrders}/${r.k}`],
    ["  of which captured", String(r.capturedRenewals)],
    ["subscriptions without a renewal order", String(r.subscriptionsWithoutRenewal)],
    ["duplicates (periods | first orders with >1 order)", `${r.duplicatePeriods} | ${r.duplicateFirstOrders}`],
    ["rolled back (deleted orders + unsettled runs)", `${rolledBack(r)} (${r.ordersDeleted} + ${r.unsettled.length})`],
    ["refunds at the service / in the store", `${r.refundedAtService} / ${r.refundsInStore}`],
    ["error lines in the log (setup | renewals)", `${r.setupLogs.errorLines.length} | ${r.logs.errorLines.length}`],
    ["deliveries given back for a retry", String(r.logs.unhandledDeliveries.length)],
    ["service reads per renewal notification", `${fmt(reads / r.notificationsAccepted)} (${reads}/${r.notificationsAccepted})`],
    ...Object.entries(r.reads).map(([endpoint, calls]) => [`  ${endpoint}`, String(calls)]),
    ["p50 charge→renewal order created | captured (s)", `${fmt(r.toOrder.p50)} | ${fmt(r.toCapture.p50)}`],
    ["p95 charge→renewal order created | captured (s)", `${fmt(r.toOrder.p95)} | ${fmt(r.toCapture.p95)}`],
    ["last renewal order created | captured after (s)", `${fmt(r.toOrder.max)} | ${fmt(r.toCapture.max)}`],
    ["captured renewal orders/s", fmt(r.capturedRenewals / Math.max(0.001, r.wallSeconds))],
    ["Medusa CPU s per renewal order", fmt(r.cpuSeconds / r.renewalOrders, 3)],
  ]
  const excerpts = [
    ...commonMessages(r.setupLogs.errorLines).map((m) => `  setup error x${m.count}: ${m.example.slice(0, 300)}`),
    ...commonMessages(r.logs.errorLines).map((m) => `  renewal error x${m.count}: ${m.example.slice(0, 300)}`),
    ...commonMessages(r.logs.unhandledDeliveries).map((m) => `  given back x${m.count}: ${m.example.slice(0, 300)}`),
  ]
  return [
    `bench:burst --scenario renewals  profile ${profile}  K=${r.k}  ${settings}`,
    `${r.k} monthly subscriptions with their first order after ${r.setupSeconds.toFixed(0)} s; second period due at ${r.dueAt} (${r.dueTicks === 1 ? "one tick for all" : `${r.dueTicks} different ticks`}); ` +
      `${r.chargedAtService} charged at the service, clock move with every first delivery answered in ${r.clockMoveMs} ms; wait ended: ${r.ended}`,
    "",
    textTable(["", "renewals"], rows),
    "",
    ...targets(r).map((t) => `${mark(t.ok)} ${t.line}`),
    ...(excerpts.length ? ["", "log excerpts (most frequent):", ...excerpts] : []),
  ].join("\n")
}

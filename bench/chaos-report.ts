// What `npm run chaos` prints once the store has had its chance to reconcile.
import { EXPECTED, SCENARIO_WEIGHTS, type Scenario, type Shopper } from "./chaos-scenarios"
import { DIVERGENCES, type DivergenceReport } from "./divergence"
import type { FaultCounts } from "./fault-proxy"
import { commonMessages, type LogSummary } from "./medusa-logs"
import { textTable } from "./text-table"

const mark = (ok: boolean) => (ok ? "PASS" : "MISS")

export function scenarioTable(shoppers: Shopper[], report: DivergenceReport): { table: string; unexpected: string[] } {
  const unexpected: string[] = []
  const rows = (Object.keys(SCENARIO_WEIGHTS) as Scenario[]).flatMap((scenario) => {
    const mine = shoppers.filter((s) => s.scenario === scenario)
    if (!mine.length) {
      return []
    }
    const states = { captured: 0, refunded: 0, canceled: 0, awaiting: 0, none: 0 }
    let asExpected = 0
    for (const shopper of mine) {
      const state = report.carts.get(shopper.cartId)?.order?.state ?? "none"
      states[state]++
      if ((EXPECTED[scenario] as string[]).includes(state)) {
        asExpected++
      } else {
        unexpected.push(`${scenario}: cart ${shopper.cartId} ended ${state}, expected ${EXPECTED[scenario].join(" or ")}`)
      }
    }
    return [[scenario, String(mine.length), EXPECTED[scenario].join("/"), `${asExpected}/${mine.length}`, ...Object.values(states).map(String)]]
  })
  return { table: textTable(["scenario", "carts", "expected", "as expected", "captured", "refunded", "canceled", "awaiting", "no order"], rows), unexpected }
}

/** The service id a divergence line starts with (a transaction, a payment intent) or its cart's. */
const leadingId = (line: string) => /^\S+/.exec(line)?.[0].replace(/:$/, "") ?? ""

export function divergenceLines(report: DivergenceReport, fatesOf: (serviceId: string) => string[]): string[] {
  const rows = DIVERGENCES.map(([invariant, key, label]) => [`${invariant} ${label}`, report[key]] as const)
  const detail = (label: string, list: string[]) =>
    list.length
      ? [
          `  ${label}, first ${Math.min(10, list.length)}:`,
          ...list.slice(0, 10).map((d) => `    ${d}${fatesOf(leadingId(d)).length ? `; deliveries: ${fatesOf(leadingId(d)).join(", ")}` : ""}`),
        ]
      : []
  const remittance = "awaiting remittance (cvs/atm paid after its order was cancelled: captured on it until the merchant remits; not a divergence)"
  return [
    textTable(["divergence after reconciliation (target 0 each)", "count"], rows.map(([label, list]) => [label, String(list.length)])),
    `${remittance}: ${report.awaitingRemittance.length}`,
    "",
    ...rows.map(([label, list]) => `${mark(list.length === 0)} ${label}: ${list.length}`),
    ...rows.flatMap(([label, list]) => detail(label, list)),
    ...detail(remittance, report.awaitingRemittance),
  ]
}

export function faultLine(counts: FaultCounts): string {
  return (
    `faults injected: ${counts.deliveries} deliveries reached the proxy: ${counts.dropped} dropped, ${counts.duplicated} duplicated, ` +
    `${counts.reordered} reordered, ${counts.storeUnreachable} answered 502 (store down); ${counts.reads} service reads: ` +
    `${counts.reads5xx} answered 5xx, ${counts.readTimeouts} timed out`
  )
}

export function logLines(logs: LogSummary): string[] {
  return [
    `Medusa logs: ${logs.errorLines.length} error lines, ${logs.failedCompletions.length} failed completion attempts, ${logs.unhandledDeliveries.length} deliveries given back for a retry`,
    ...commonMessages(logs.errorLines).map((m) => `  error x${m.count}: ${m.example.slice(0, 300)}`),
    ...commonMessages(logs.failedCompletions.map((f) => f.reason)).map((m) => `  failed completion x${m.count}: ${m.example.slice(0, 300)}`),
  ]
}

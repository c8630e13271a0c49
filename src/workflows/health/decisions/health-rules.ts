import { HEALTH_RULES, type HealthRule, type PlacementPath } from "../../../shared/health-views"

/** What the rules look at, read by the health check (`load-tw-health-readings`). Times in ms since the epoch. */
export interface HealthReadings {
  now: number
  /** How the latest orders of the rules' window were placed, newest first (at most `reconciledOrders`). */
  latestPaths: PlacementPath[]
  /** Webhooks of the rules' window refused for their signature: unsigned or matching no secret. */
  signatureFailures: number
  /** The minute the latest of them was counted in, and the latest verified webhook's (tallies are by minute). */
  lastSignatureFailure: number | null
  lastVerifiedWebhook: number | null
  oldestAwaitedRefund: number | null
  oldestRemittanceDue: number | null
  oldestOpenCharge: number | null
}

/** The thresholds (the `health` options, `health-options.ts`). */
export interface HealthThresholds {
  reconciledShare: number
  minOrders: number
  signatureFailures: number
  refundMinutes: number
  remittanceDays: number
  openChargeMinutes: number
}

export interface RuleVerdict {
  rule: HealthRule
  figure: number
  threshold: number
}

/** A rule's figure when it warns (orders' share in %, failures, minutes, days), else null. */
type Rule = (readings: HealthReadings, thresholds: HealthThresholds) => number | null

const MINUTE = 60_000
const DAY = 86_400_000

/** Whole units an instant is older than now, when that reaches the threshold; else null. */
function olderThan(now: number, since: number | null, unit: number, threshold: number) {
  const figure = since === null ? null : Math.floor((now - since) / unit)
  return figure !== null && figure >= threshold ? figure : null
}

/** Every rule, by id: the table is exhaustive, so a new rule id cannot go unevaluated. */
const RULES: Record<HealthRule, Rule> = {
  notifications_missing: ({ latestPaths }, { reconciledShare, minOrders }) => {
    if (latestPaths.length < minOrders) {
      return null
    }
    const share = latestPaths.filter((path) => path === "reconciliation").length / latestPaths.length
    return share > reconciledShare ? Math.round(share * 100) : null
  },
  // Cleared by a webhook verified in a later minute than the latest failure: the store has the new secret.
  webhook_signatures_failing: ({ signatureFailures, lastSignatureFailure, lastVerifiedWebhook }, { signatureFailures: threshold }) =>
    signatureFailures >= threshold && !(lastVerifiedWebhook !== null && lastSignatureFailure !== null && lastVerifiedWebhook > lastSignatureFailure) ? signatureFailures : null,
  refunds_failing: ({ now, oldestAwaitedRefund }, { refundMinutes }) => olderThan(now, oldestAwaitedRefund, MINUTE, refundMinutes),
  remittances_overdue: ({ now, oldestRemittanceDue }, { remittanceDays }) => olderThan(now, oldestRemittanceDue, DAY, remittanceDays),
  saved_card_outcomes_open: ({ now, oldestOpenCharge }, { openChargeMinutes }) => olderThan(now, oldestOpenCharge, MINUTE, openChargeMinutes),
}

/** The threshold a rule's warning names, in its figure's unit (the share rule's in %). */
export function thresholdOf(rule: HealthRule, thresholds: HealthThresholds): number {
  const named: Record<HealthRule, number> = {
    notifications_missing: Math.round(thresholds.reconciledShare * 100),
    webhook_signatures_failing: thresholds.signatureFailures,
    refunds_failing: thresholds.refundMinutes,
    remittances_overdue: thresholds.remittanceDays,
    saved_card_outcomes_open: thresholds.openChargeMinutes,
  }
  return named[rule]
}

/** The warnings the readings call for, in the rules' order. */
export function evaluateHealth(readings: HealthReadings, thresholds: HealthThresholds): RuleVerdict[] {
  return HEALTH_RULES.flatMap((rule) => {
    const figure = RULES[rule](readings, thresholds)
    return figure === null ? [] : [{ rule, figure, threshold: thresholdOf(rule, thresholds) }]
  })
}

/** Which warnings start and which clear, against those on before. */
export function healthChanges(verdicts: RuleVerdict[], wasOn: HealthRule[]): { started: RuleVerdict[]; cleared: HealthRule[] } {
  const on = new Set(verdicts.map((verdict) => verdict.rule))
  return { started: verdicts.filter((verdict) => !wasOn.includes(verdict.rule)), cleared: wasOn.filter((rule) => !on.has(rule)) }
}

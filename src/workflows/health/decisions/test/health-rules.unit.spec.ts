import { HEALTH_RULE_TEXTS, HEALTH_RULES, healthRuleText } from "../../../../shared/health-views"
import { evaluateHealth, type HealthReadings, healthChanges, type HealthThresholds } from "../health-rules"

const NOW = Date.parse("2026-11-29T12:00:00Z")
const MIN = 60_000
const DAY = 86_400_000
const thresholds: HealthThresholds = { reconciledShare: 0.5, minOrders: 3, signatureFailures: 1, refundMinutes: 60, remittanceDays: 3, openChargeMinutes: 30 }
const quiet: HealthReadings = { now: NOW, latestPaths: [], signatureFailures: 0, lastSignatureFailure: null, lastVerifiedWebhook: null, oldestAwaitedRefund: null, oldestRemittanceDue: null, oldestOpenCharge: null }
const reading = (changes: Partial<HealthReadings>): HealthReadings => ({ ...quiet, ...changes })

describe("evaluateHealth (the payments health rules)", () => {
  it.each([
    ["nothing to read: no warning", reading({}), []],
    ["orders placed by returns and deliveries", reading({ latestPaths: ["return", "delivery", "reconciliation", "delivery"] }), []],
    ["half by the reconciliation is not more than half", reading({ latestPaths: ["reconciliation", "reconciliation", "delivery", "return"] }), []],
    [
      "most of the latest orders placed by the reconciliation",
      reading({ latestPaths: ["reconciliation", "reconciliation", "delivery"] }),
      [{ rule: "notifications_missing", figure: 67, threshold: 50 }],
    ],
    ["too few orders to judge", reading({ latestPaths: ["reconciliation", "reconciliation"] }), []],
    ["one webhook failing its signature", reading({ signatureFailures: 1, lastSignatureFailure: NOW - MIN }), [{ rule: "webhook_signatures_failing", figure: 1, threshold: 1 }]],
    [
      "a webhook verified in the same minute as the latest failure",
      reading({ signatureFailures: 2, lastSignatureFailure: NOW - MIN, lastVerifiedWebhook: NOW - MIN }),
      [{ rule: "webhook_signatures_failing", figure: 2, threshold: 1 }],
    ],
    ["a webhook verified after the latest failure: the store has the new secret", reading({ signatureFailures: 2, lastSignatureFailure: NOW - 2 * MIN, lastVerifiedWebhook: NOW - MIN }), []],
    ["a refund awaited 59 minutes", reading({ oldestAwaitedRefund: NOW - 59 * MIN }), []],
    ["a refund awaited an hour", reading({ oldestAwaitedRefund: NOW - 60 * MIN }), [{ rule: "refunds_failing", figure: 60, threshold: 60 }]],
    ["a remittance due 2 days", reading({ oldestRemittanceDue: NOW - 2.9 * DAY }), []],
    ["a remittance due 3 days", reading({ oldestRemittanceDue: NOW - 3 * DAY }), [{ rule: "remittances_overdue", figure: 3, threshold: 3 }]],
    ["a charge open 29 minutes", reading({ oldestOpenCharge: NOW - 29 * MIN }), []],
    ["a charge open 45 minutes", reading({ oldestOpenCharge: NOW - 45 * MIN }), [{ rule: "saved_card_outcomes_open", figure: 45, threshold: 30 }]],
    [
      "several at once, in the rules' order",
      reading({ oldestOpenCharge: NOW - 45 * MIN, signatureFailures: 4, lastSignatureFailure: NOW - MIN, lastVerifiedWebhook: NOW - 5 * MIN }),
      [
        { rule: "webhook_signatures_failing", figure: 4, threshold: 1 },
        { rule: "saved_card_outcomes_open", figure: 45, threshold: 30 },
      ],
    ],
  ])("%s", (_name, readings, expected) => {
    expect(evaluateHealth(readings, thresholds)).toEqual(expected)
  })

  it.each([
    ["a lower share", { reconciledShare: 0.2 }, reading({ latestPaths: ["reconciliation", "delivery", "delivery", "return"] }), ["notifications_missing"]],
    ["more failures needed", { signatureFailures: 5 }, reading({ signatureFailures: 4 }), []],
    ["a shorter refund wait", { refundMinutes: 10 }, reading({ oldestAwaitedRefund: NOW - 11 * MIN }), ["refunds_failing"]],
    ["a single order judged", { minOrders: 1 }, reading({ latestPaths: ["reconciliation"] }), ["notifications_missing"]],
  ])("follows its threshold: %s", (_name, changes, readings, rules) => {
    expect(evaluateHealth(readings, { ...thresholds, ...changes }).map((verdict) => verdict.rule)).toEqual(rules)
  })
})

describe("healthChanges (a warning starts and clears once)", () => {
  const on = { rule: "webhook_signatures_failing" as const, figure: 2, threshold: 1 }
  it.each([
    ["nothing on, nothing called for", [], [], { started: [], cleared: [] }],
    ["a warning starts", [on], [], { started: [on], cleared: [] }],
    ["still on: no news", [on], ["webhook_signatures_failing"], { started: [], cleared: [] }],
    ["it clears", [], ["webhook_signatures_failing"], { started: [], cleared: ["webhook_signatures_failing"] }],
  ] as const)("%s", (_name, verdicts, wasOn, expected) => {
    expect(healthChanges([...verdicts], [...wasOn])).toEqual(expected)
  })
})

describe("the what-to-do texts", () => {
  it("has an English and a Traditional Chinese text for every rule, with its figures", () => {
    for (const rule of HEALTH_RULES) {
      expect(HEALTH_RULE_TEXTS[rule].en).toContain("{figure}")
      expect(HEALTH_RULE_TEXTS[rule].zhTW).toContain("{figure}")
    }
    expect(healthRuleText({ rule: "notifications_missing", figure: 80, threshold: 50 }, "en")).toContain("80% of the latest orders")
  })
})

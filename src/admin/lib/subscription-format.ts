import type { PeriodStatus, PlanKind, SubscriptionStatus } from "../../shared/statuses"
import type { SubscriptionView } from "../../shared/subscription-views"

type Color = "green" | "red" | "blue" | "orange" | "grey" | "purple"
/** The `t` of `useTranslation()`, as far as these formats use it. */
type Translate = (key: string, options?: Record<string, unknown>) => string

export const STATUS_COLORS: Record<SubscriptionStatus, Color> = {
  pending: "grey",
  pending_first_charge: "blue",
  active: "green",
  retrying: "orange",
  stopped: "red",
  completed: "purple",
  cancelled: "grey",
}

export const PERIOD_COLORS: Record<PeriodStatus, Color> = { paid: "green", retrying: "orange", failed: "red" }

/** Whole TWD as the service charges it, e.g. "NT$1,200". */
export const formatAmount = (amount: number, currency = "twd") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase(), maximumFractionDigits: 0 }).format(amount)

/** The service charges on Taipei dates (09:00), so dates are shown in Taipei time whatever the browser's zone. */
export const formatDateTime = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei", dateStyle: "short", timeStyle: "short", hour12: false }).format(new Date(iso)) : "-"

/** "Monthly" or "Every 3 months": how often a plan or a subscription charges. */
export const formatInterval = (t: Translate, terms: { kind: PlanKind; interval_months: number }) =>
  terms.kind === "monthly"
    ? t("twPayment.format.monthly")
    : terms.interval_months === 1
      ? t("twPayment.format.everyMonthScheduled")
      : t("twPayment.format.everyMonths", { count: terms.interval_months })

/** "3 / 12", or "3 / until cancelled". */
export const formatPeriods = (t: Translate, s: Pick<SubscriptionView, "periods_charged" | "periods_total">) =>
  s.periods_total === null
    ? t("twPayment.format.periodsUntilCancelled", { charged: s.periods_charged })
    : t("twPayment.format.periods", { charged: s.periods_charged, total: s.periods_total })

export const customerName = (c: { email: string; first_name?: string | null; last_name?: string | null }) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ") || c.email

import type { Period, Plan, Subscription, SubscriptionStatus } from "./subscription-types"

type Color = "green" | "red" | "blue" | "orange" | "grey" | "purple"

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  pending: "Pending checkout",
  pending_first_charge: "Awaiting first charge",
  active: "Active",
  retrying: "Retrying",
  stopped: "Stopped",
  completed: "Completed",
  cancelled: "Cancelled",
}

export const STATUS_COLORS: Record<SubscriptionStatus, Color> = {
  pending: "grey",
  pending_first_charge: "blue",
  active: "green",
  retrying: "orange",
  stopped: "red",
  completed: "purple",
  cancelled: "grey",
}

export const PERIOD_COLORS: Record<Period["status"], Color> = { paid: "green", retrying: "orange", failed: "red" }

/** Whole TWD as the service charges it, e.g. "NT$1,200". */
export const formatAmount = (amount: number, currency = "twd") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase(), maximumFractionDigits: 0 }).format(amount)

/** The service charges on Taipei dates (09:00), so dates are shown in Taipei time whatever the browser's zone. */
export const formatDateTime = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei", dateStyle: "short", timeStyle: "short", hour12: false }).format(new Date(iso)) : "-"

/** "Monthly" or "Every 3 months": how often a plan or a subscription charges. */
export const formatInterval = (terms: Pick<Plan, "kind" | "interval_months">) =>
  terms.kind === "monthly" ? "Monthly" : terms.interval_months === 1 ? "Every month (scheduled)" : `Every ${terms.interval_months} months`

/** "3 / 12", or "3 / until cancelled". */
export const formatPeriods = (s: Pick<Subscription, "periods_charged" | "periods_total">) =>
  `${s.periods_charged} / ${s.periods_total ?? "until cancelled"}`

export const customerName = (c: { email: string; first_name: string | null; last_name: string | null }) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ") || c.email

import type * as Otel from "@opentelemetry/api"

/**
 * The plugin's OpenTelemetry metrics, through `@opentelemetry/api` only (an optional peer): without it, or
 * without an SDK registered by the store, every call here does nothing. The instruments are made again
 * whenever the global meter provider changes, so an SDK registered after the plugin loaded (a store's
 * `instrumentation.ts`, a test's reader) gets them.
 */
export const METRIC_NAMES = {
  payments: "tw_payments",
  deliveries: "tw_payment_deliveries",
  paymentToOrder: "tw_payment_to_order_seconds",
  refundsAwaiting: "tw_refunds_awaiting_twd",
  remittancesDue: "tw_remittances_due_twd",
} as const

function loadApi(): typeof Otel | undefined {
  try {
    // Optional: a store without it loses only the metrics.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("@opentelemetry/api") as typeof Otel
  } catch {
    return undefined
  }
}

const api = loadApi()

/** Last values the health check read: gauges are observed from them, as a callback cannot query. */
const waiting = { refundsAwaiting: 0, remittancesDue: 0 }

interface Instruments {
  provider: Otel.MeterProvider
  payments: Otel.Counter
  deliveries: Otel.Counter
  paymentToOrder: Otel.Histogram
}

let current: Instruments | undefined

function instruments(): Instruments | undefined {
  if (!api) {
    return undefined
  }
  const provider = api.metrics.getMeterProvider()
  if (current?.provider === provider) {
    return current
  }
  const meter = provider.getMeter("medusa-payment-tw")
  meter
    .createObservableGauge(METRIC_NAMES.refundsAwaiting, { description: "Refunds the store recorded that the service has not confirmed", unit: "TWD" })
    .addCallback((result) => result.observe(waiting.refundsAwaiting))
  meter
    .createObservableGauge(METRIC_NAMES.remittancesDue, { description: "cvs/atm money due for remittance to shoppers", unit: "TWD" })
    .addCallback((result) => result.observe(waiting.remittancesDue))
  current = {
    provider,
    payments: meter.createCounter(METRIC_NAMES.payments, { description: "Payments by provider and outcome" }),
    deliveries: meter.createCounter(METRIC_NAMES.deliveries, { description: "Notifications and webhooks by kind and verdict" }),
    paymentToOrder: meter.createHistogram(METRIC_NAMES.paymentToOrder, { description: "Time from a payment to its order, by the path that placed it", unit: "s" }),
  }
  return current
}

export function countPayment(provider: string, outcome: string): void {
  instruments()?.payments.add(1, { provider, outcome })
}

export function countDelivery(provider: string, kind: string, verdict: string): void {
  instruments()?.deliveries.add(1, { provider, kind, verdict })
}

export function recordPaymentToOrder(path: string, seconds: number): void {
  instruments()?.paymentToOrder.record(seconds, { path })
}

/** The money waiting, as the latest health check found it (whole TWD). */
export function observeMoneyWaiting(values: { refundsAwaiting: number; remittancesDue: number }): void {
  Object.assign(waiting, values)
  instruments()
}

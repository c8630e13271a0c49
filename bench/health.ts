/**
 * The payments health page's answer time (`GET /admin/tw-payments/health`) for a store with 100,000 payments
 * of the plugin: a fresh store (default profile), then, straight into its database, N captured payments over
 * the last week with their placements (paths and payment-to-order seconds), a week of delivery tallies by
 * minute, refunds and remittances due; then each window is asked for R times. The bar: under 300 ms.
 * A benchmark, not a test: it prints, it does not assert.
 *
 * `node --import tsx bench/health.ts [--n 100000] [--rounds 20] [--out FILE]`
 */
import { parseArgs } from "node:util"
import { HEALTH_WINDOWS } from "../src/shared/health-views"
import { percentile } from "./percentiles"
import { defaultOutPath, keepReport, shown } from "./report-file"
import { EMBEDDED_PROVIDER, HOSTED_PROVIDER, requestJson } from "./store"
import { runHarness, withScratchStore } from "./scratch-store"
import { fmt, textTable } from "./text-table"

const { values } = parseArgs({ options: { n: { type: "string", default: "100000" }, rounds: { type: "string", default: "20" }, out: { type: "string" } } })
const N = Number(values.n)
const ROUNDS = Number(values.rounds)
if (!(N >= 1) || !(ROUNDS >= 1)) {
  console.error("[health] --n and --rounds positive integers")
  process.exit(2)
}
const OUT = values.out ?? defaultOutPath(`health-n${N}`)
const ADMIN = { email: "bench-admin@example.test", password: "bench-admin-password-1" }
const started = Date.now()
const say = (line: string) => console.log(`[health ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)

/** N payments of the two providers over the last week, their placements, tallies, refunds and remittances: statements with $1 = N. */
const SEED = [
  `insert into payment_collection (id, currency_code, amount, raw_amount, status) values ('pay_col_bench', 'twd', 100, '{"value":"100","precision":20}', 'completed')`,
  `insert into payment (id, amount, raw_amount, currency_code, provider_id, payment_collection_id, payment_session_id, data, captured_at, created_at, updated_at)
   select 'pay_bench_' || i, 100, '{"value":"100","precision":20}', 'twd', case when i % 3 = 0 then $3 else $2 end, 'pay_col_bench', 'payses_bench_' || i,
          case when i % 3 = 0 then jsonb_build_object('session_id', 'payses_bench_' || i, 'paymentIntentId', 'pi_bench_' || i, 'amount', 100, 'refunds', jsonb_build_array())
               else jsonb_build_object('session_id', 'payses_bench_' || i, 'transactionId', 'tx_bench_' || i, 'transactionHid', 'HIDB' || i, 'amount', 100) end,
          now() - (i % 10080) * interval '1 minute', now() - (i % 10080) * interval '1 minute', now()
   from generate_series(1, $1::int) as i`,
  `insert into tw_order_placement (id, order_id, provider_key, path, awaiting, paid_at, placed_at, seconds)
   select 'twplc_bench_' || i, 'order_bench_' || i, case when i % 3 = 0 then 'embedded-card_embedded-card' else 'hosted-checkout_hosted-checkout' end,
          (array['return', 'delivery', 'reconciliation'])[1 + i % 3], i % 17 = 0, now() - (i % 10080) * interval '1 minute' - (i % 90) * interval '1 second',
          now() - (i % 10080) * interval '1 minute', i % 90
   from generate_series(1, $1::int) as i`,
  `insert into tw_health_tally (id, minute, provider_key, figure, key, count)
   select 'twtly_bench_' || m || '_' || k, date_trunc('minute', now()) - m * interval '1 minute', 'hosted-checkout_hosted-checkout', 'delivery', k, 1 + m % 7
   from generate_series(0, 10079) as m, unnest(array['notification:accepted', 'notification:verified', 'notification:forged', 'webhook:verified']) as k`,
  `insert into refund (id, amount, raw_amount, payment_id, created_at, updated_at)
   select 'ref_bench_' || i, 100, '{"value":"100","precision":20}', 'pay_bench_' || i, now() - (i % 10080) * interval '1 minute', now()
   from generate_series(1, $1::int / 100) as i`,
  `insert into tw_remittance_due (id, provider_key, transaction_id, transaction_hid, amount, payment_method, session_id, reason)
   select 'twrem_bench_' || i, 'hosted-checkout_hosted-checkout', 'tx_bench_' || i, 'HID' || i, 500, 'cvs', null, 'bench' from generate_series(1, 50) as i`,
  `analyze`,
]

async function main() {
  keepReport(OUT)
  await withScratchStore("health", { profile: "default", stock: 1000, admin: ADMIN, env: { TW_RECONCILIATION: "off" }, say }, async (store) => {
    say(`seeding ${N} payments, their placements, a week of delivery tallies, ${Math.floor(N / 100)} refunds`)
    for (const statement of SEED) {
      const params = [N, HOSTED_PROVIDER, EMBEDDED_PROVIDER].slice(0, Math.max(0, ...[...statement.matchAll(/\$(\d)/g)].map((m) => Number(m[1]))))
      await store.sql(statement, params)
    }
    const { data } = await requestJson<{ token: string }>(`${store.url}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) }, "admin login")
    const headers = { authorization: `Bearer ${data.token}` }
    const rows: string[][] = []
    for (const window of HEALTH_WINDOWS) {
      const times: number[] = []
      let captured = 0
      let refunded = 0
      for (let round = 0; round <= ROUNDS; round++) {
        const t0 = performance.now()
        const answer = await requestJson<{ figures: { payments: { captured: number; refunded: number } } }>(`${store.url}/admin/tw-payments/health?window=${window}`, { headers }, `health ${window}`)
        // The first round warms the route and the database's caches.
        if (round > 0) {
          times.push(performance.now() - t0)
        }
        captured = answer.data.figures.payments.captured
        refunded = answer.data.figures.payments.refunded
      }
      rows.push([window, String(captured), String(refunded), fmt(percentile(times, 50) ?? Number.NaN, 1), fmt(percentile(times, 95) ?? Number.NaN, 1), fmt(Math.max(...times), 1)])
    }
    console.log("")
    console.log(`health  N=${N} payments  ${ROUNDS} rounds a window  (GET /admin/tw-payments/health; ${new Date().toISOString().slice(0, 10)})`)
    console.log(textTable(["window", "captured", "refunded", "p50 ms", "p95 ms", "max ms"], rows))
    console.log(`report: ${shown(OUT)}`)
  })
}

runHarness("health", main)

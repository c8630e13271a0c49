/**
 * What a flash sale of one SKU serialises on: core's completion reserves the
 * inventory while it holds a lock on the item (`reserveInventoryStep`, Medusa's
 * locking module: Redis on the production and cluster profiles), so however
 * many servers and workers a store runs, one SKU's orders pass that section one
 * at a time. This times the section alone, in the store's own context
 * (`bench/sku-lock-exec.ts` through `medusa exec`): N reservations one after
 * another (the time inside the lock, and with taking and giving back the lock),
 * then N with C callers at once. The ceiling of one SKU is 1 / the time inside.
 *
 * `npm run bench:sku-lock -- [--profile default|production|cluster] [--n 200] [--concurrency 8] [--out FILE]`
 * What it prints is also written to FILE, by default .tmp/bench/sku-lock-<profile>-n<N>-<time>.txt.
 */
import { parseArgs } from "node:util"
import { percentile } from "./percentiles"
import { defaultOutPath, keepReport, shown } from "./report-file"
import { type Profile, PROFILES } from "./store"
import { runHarness, withScratchStore } from "./scratch-store"
import { fmt, textTable } from "./text-table"

const { values } = parseArgs({
  options: {
    profile: { type: "string", default: "production" },
    n: { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
    out: { type: "string" },
  },
})
const profile = values.profile as Profile
const N = Number(values.n)
const CONCURRENCY = Number(values.concurrency)
if (!PROFILES.includes(profile) || !(N >= 1) || !(CONCURRENCY >= 1)) {
  console.error("[sku-lock] --profile default|production|cluster, --n and --concurrency positive integers")
  process.exit(2)
}
const OUT = values.out ?? defaultOutPath(`sku-lock-${profile}-n${N}`)
const started = Date.now()
const say = (line: string) => console.log(`[sku-lock ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)

interface Timing {
  held: number
  total: number
}

async function main() {
  keepReport(OUT)
  await withScratchStore("sku-lock", { profile, stock: 10 * N + 1000, say }, async (store) => {
    say(`${N} reservations of one SKU one after another, then ${N} with ${CONCURRENCY} at once`)
    const out = await store.exec("./bench/sku-lock-exec.ts", [String(N), String(CONCURRENCY)])
    const line = out.split("\n").find((l) => l.startsWith("SKU-LOCK "))
    if (!line) {
      throw new Error(`medusa exec printed no result:\n${out.slice(-2000)}`)
    }
    const { serial, contended, wallMs } = JSON.parse(line.slice("SKU-LOCK ".length)) as { serial: Timing[]; contended: Timing[]; wallMs: number }
    const ms = (timings: Timing[], key: keyof Timing, p: number) => fmt(percentile(timings.map((t) => t[key]), p) ?? Number.NaN, 1)
    const insideP50 = percentile(serial.map((t) => t.held), 50) ?? Number.NaN
    console.log("")
    console.log(`sku-lock  profile ${profile}  N=${N}  (the inventory reservation core's completion makes under the item's lock; ${new Date().toISOString().slice(0, 10)})`)
    console.log(
      textTable(
        ["", "p50 ms", "p95 ms"],
        [
          ["one after another: inside the lock", ms(serial, "held", 50), ms(serial, "held", 95)],
          ["one after another: with taking and giving back the lock", ms(serial, "total", 50), ms(serial, "total", 95)],
          [`${CONCURRENCY} at once: each caller's wait and reservation`, ms(contended, "total", 50), ms(contended, "total", 95)],
        ]
      )
    )
    console.log(`one SKU's ceiling from the time inside the lock: ${fmt(1000 / insideP50, 0)} reservations/s; measured with ${CONCURRENCY} at once: ${fmt((N * 1000) / wallMs, 0)} reservations/s`)
    console.log(`report: ${shown(OUT)}`)
  })
}

runHarness("sku-lock", main)

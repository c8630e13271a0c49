/**
 * `npm run bench [-- --out FILE]`: the clients' overhead, as ratios against a baseline measured
 * in the same run on the same machine (absolute numbers mean little on a shared
 * 2-core box; ratios do). What it prints is also written to FILE, by default
 * .tmp/bench/bench-<time>.txt. BENCH_ROUNDS, BENCH_HTTP_OPS and BENCH_SIG_OPS set how much it runs.
 */
import { createHmac } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { parseArgs } from "node:util"
import { Pool } from "undici"
import { HostedCheckoutClient } from "../src/lib/hosted"
import { signPayload, verifySignature } from "../src/lib/embedded"
import { defaultOutPath, keepReport, shown } from "./report-file"

const { values } = parseArgs({ options: { out: { type: "string" } } })
const OUT = values.out ?? defaultOutPath("bench")

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5)
const HTTP_OPS = Number(process.env.BENCH_HTTP_OPS || 2000)
const SIG_OPS = Number(process.env.BENCH_SIG_OPS || 20000)

const TRANSACTION_ID = "Ab3dE5gH7jK9mN1pQ3sT5vX7zA9"
const transactionBody = JSON.stringify({
  code: "S0000",
  message: "",
  data: {
    id: TRANSACTION_ID,
    transactionId: TRANSACTION_ID,
    transactionHid: "P2026112112345678",
    merchantId: "demo-shop",
    orderId: "order_01JD0000000000000000000000",
    status: "charged",
    amount: 1280,
    currency: "twd",
    paymentMethod: "card",
    paymentInfo: "4242",
    authCode: "123456",
    customId: "payses_01JD0000000000000000000000",
    productDetails: [{ productionCode: "TEE-1", description: "T-shirt", quantity: 2, unit: "pc", unitPrice: 640 }],
    createdAt: "2026-11-21T03:00:00.000Z",
    paidAt: "2026-11-21T03:01:00.000Z",
  },
})

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function timeAsync(ops: number, fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint()
  for (let i = 0; i < ops; i++) {
    await fn()
  }
  return Number(process.hrtime.bigint() - started) / ops
}

function timeSync(ops: number, fn: () => unknown): number {
  const started = process.hrtime.bigint()
  for (let i = 0; i < ops; i++) {
    fn()
  }
  return Number(process.hrtime.bigint() - started) / ops
}

/**
 * Baseline and subject run one operation each in turn, timed separately, so
 * that drift (GC, CPU frequency, the other core's load) hits both alike.
 * Returns the median over rounds of each side's mean ns/op.
 */
async function compare(ops: number, baseline: () => Promise<unknown>, subject: () => Promise<unknown>) {
  const base: number[] = []
  const subj: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let b = 0n
    let s = 0n
    for (let i = 0; i < ops; i++) {
      const t0 = process.hrtime.bigint()
      await baseline()
      const t1 = process.hrtime.bigint()
      await subject()
      s += process.hrtime.bigint() - t1
      b += t1 - t0
    }
    base.push(Number(b) / ops)
    subj.push(Number(s) / ops)
  }
  return { baseline: median(base), subject: median(subj) }
}

/**
 * The same for a synchronous operation of a few µs: per-op timers would weigh
 * as much as the work, so the two sides alternate in chunks of 500 calls.
 */
function compareSync(ops: number, baseline: () => unknown, subject: () => unknown) {
  const CHUNK = 500
  const base: number[] = []
  const subj: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let b = 0
    let s = 0
    for (let done = 0; done < ops; done += CHUNK) {
      b += timeSync(CHUNK, baseline)
      s += timeSync(CHUNK, subject)
    }
    base.push(b / (ops / CHUNK))
    subj.push(s / (ops / CHUNK))
  }
  return { baseline: median(base), subject: median(subj) }
}

function heapPerOp(ops: number, fn: () => void): number {
  global.gc?.()
  const before = process.memoryUsage().heapUsed
  fn()
  global.gc?.()
  return (process.memoryUsage().heapUsed - before) / ops
}

async function benchRetrieve() {
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "application/json")
    res.end(transactionBody)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const pool = new Pool(baseUrl, { connections: 16, keepAliveTimeout: 30_000 })
  const client = new HostedCheckoutClient({
    apiToken: "bench-token-0123456789",
    merchantId: "demo-shop",
    baseUrl,
    checkoutHost: baseUrl,
  })
  const bare = async () => {
    const res = await pool.request({
      path: `/transactions/${TRANSACTION_ID}`,
      method: "GET",
      headers: { authorization: "Bearer bench-token-0123456789", "content-type": "application/json" },
    })
    return res.body.json()
  }
  const viaClient = () => client.transactions.retrieve(TRANSACTION_ID)
  await timeAsync(300, bare)
  await timeAsync(300, viaClient)
  const result = await compare(HTTP_OPS, bare, viaClient)
  await client.close()
  await pool.close()
  server.close()
  return result
}

async function benchVerify() {
  const secret = "whsec_" + "k".repeat(48)
  const body = JSON.stringify({
    id: "evt_01JD00000000000000000000",
    type: "payment_intent.succeeded",
    api_version: "2026-01-01",
    created: 1_795_000_000,
    data: { id: "pi_01JD000000000000", status: "succeeded", amount: 1280, currency: "TWD", orderId: "order_1", metadata: { session_id: "payses_01JD000000000000" }, description: "x".repeat(600) },
  })
  const raw = Buffer.from(body)
  const timestamp = 1_795_000_000
  const header = signPayload(raw, secret, { timestamp })
  const expected = header.split("v1=")[1]
  let sink = 0
  const bare = () => {
    const digest = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")
    sink += digest === expected ? 1 : 0
  }
  const verify = () => verifySignature(raw, header, secret, { now: timestamp })
  timeSync(2000, bare)
  timeSync(2000, verify)
  const result = compareSync(SIG_OPS, bare, verify)
  if (sink === 0) {
    throw new Error("baseline never matched: the benchmark is not comparing like with like")
  }
  const heap = heapPerOp(SIG_OPS, () => timeSync(SIG_OPS, verify))
  return { ...result, heap }
}

async function main() {
  const closeReport = keepReport(OUT)
  if (!global.gc) {
    console.warn("(run with --expose-gc for heap figures)")
  }
  console.log(`medusa-payment-tw benchmarks: ${ROUNDS} alternating rounds, median reported\n`)

  const retrieve = await benchRetrieve()
  const retrieveRatio = retrieve.subject / retrieve.baseline
  console.log("GET /transactions/{id} over loopback HTTP")
  console.log(`  bare undici request + JSON : ${(retrieve.baseline / 1000).toFixed(1)} µs/op`)
  console.log(`  HostedCheckoutClient       : ${(retrieve.subject / 1000).toFixed(1)} µs/op`)
  console.log(`  cost ratio client/bare     : ${retrieveRatio.toFixed(3)}x  (target <= 1.15x) ${retrieveRatio <= 1.15 ? "OK" : "MISSED"}\n`)

  const verify = await benchVerify()
  const throughputRatio = verify.baseline / verify.subject
  console.log("Webhook signature verification (1 KB body, one secret)")
  console.log(`  bare createHmac loop       : ${Math.round(1e9 / verify.baseline).toLocaleString("en")} /s`)
  console.log(`  verifySignature            : ${Math.round(1e9 / verify.subject).toLocaleString("en")} /s`)
  console.log(`  throughput ratio           : ${throughputRatio.toFixed(3)}x  (target >= 0.8x) ${throughputRatio >= 0.8 ? "OK" : "MISSED"}`)
  if (global.gc) {
    console.log(`  retained heap              : ${verify.heap.toFixed(2)} bytes/op`)
  }
  console.log(`\nreport: ${shown(OUT)}`)
  closeReport()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

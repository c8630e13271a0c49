/**
 * The chaos run's faults, injected per request in proportion. The sandbox's own
 * fault API arms a fault for the next `count` matching requests and has no
 * probability option, and its notification faults cover hosted notifications
 * only, not embedded webhooks. So one HTTP proxy sits on both paths between
 * the sandbox and the store:
 *
 * - `/hooks/*` (the sandbox delivering to the store): a share of deliveries is
 *   dropped (answered 200, never forwarded: the service thinks it delivered),
 *   duplicated (forwarded, then sent again 0-3 s later), or reordered (held until
 *   the next delivery has gone through, at most 4 s). A store that is down
 *   gets the sandbox a 502, so the service's own retries apply. A card
 *   binding's `token` result is never dropped or held (see `delivery`).
 * - everything else (the store calling the service's APIs): a share of reads
 *   of a transaction or payment intent is answered with a 5xx or never answered.
 *   For those the proxy arms the sandbox's own `http500` or `timeout` fault
 *   (count 1) just before forwarding, so the answer is the service's real one.
 *   Two reads in flight can swap which of them gets it; the share stays the same.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { Agent, request } from "undici"
import type { SandboxHandle } from "medusa-payment-tw-sandbox"

export interface FaultRates {
  drop: number
  duplicate: number
  reorder: number
  /** Share of service reads answered 5xx or timed out (half each). */
  readFault: number
}

export interface FaultCounts {
  deliveries: number
  dropped: number
  duplicated: number
  reordered: number
  /** Deliveries answered 502 because the store did not answer (down or restarting). */
  storeUnreachable: number
  reads: number
  reads5xx: number
  readTimeouts: number
}

/** Longer than the providers' 30 s wait for response headers. */
const READ_TIMEOUT_HOLD_MS = 31_000
const REORDER_MAX_HOLD_MS = 4_000
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "proxy-connection"])
const READS: Array<{ pattern: RegExp; api: "hosted" | "embedded"; endpoint: string }> = [
  { pattern: /^\/hosted-api\/transactions\/[^/?]+$/, api: "hosted", endpoint: "GET /transactions/{id}" },
  { pattern: /^\/v1\/payment-intents\/[^/?]+$/, api: "embedded", endpoint: "GET /v1/payment-intents/{id}" },
]

const forwardHeaders = (headers: IncomingMessage["headers"]) =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && value !== undefined)) as Record<string, string | string[]>

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) {
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

export async function startFaultProxy({
  storeUrl,
  sandbox,
  rates,
  random,
}: {
  storeUrl: string
  sandbox: SandboxHandle
  rates: FaultRates
  /** A seeded generator, so a run can be repeated. */
  random: () => number
}) {
  const counts: FaultCounts = { deliveries: 0, dropped: 0, duplicated: 0, reordered: 0, storeUnreachable: 0, reads: 0, reads5xx: 0, readTimeouts: 0 }
  const agent = new Agent({ connections: 256, headersTimeout: 120_000, bodyTimeout: 120_000 })
  let held: Array<() => void> = []
  let active = true
  /** What happened to each delivery, by the transaction or payment intent it is about (for the report's details). */
  const fates = new Map<string, string[]>()
  /** Deliveries the store answered 2xx, with when, by the transaction or payment intent they are about (I6: was a real delivery handled?). */
  const acceptances = new Map<string, Array<{ kind: string; at: number }>>()
  const about = (payload: Buffer): { id?: string; kind: string; purpose?: string } => {
    try {
      const parsed = JSON.parse(payload.toString("utf8")) as { id?: string; type?: string; purpose?: string; status?: string; data?: { id?: string; paymentIntentId?: string } }
      const id = parsed.data ? (parsed.data.paymentIntentId ?? parsed.data.id) : parsed.id
      return { id, kind: parsed.type ?? `${parsed.purpose}:${parsed.status}`, purpose: parsed.purpose }
    } catch {
      return { kind: "not JSON" }
    }
  }
  const note = (payload: Buffer, fate: string) => {
    const { id, kind } = about(payload)
    if (id) {
      fates.set(id, [...(fates.get(id) ?? []), `${kind} ${fate}`])
    }
  }

  const forward = async (base: string, req: IncomingMessage, payload: Buffer) => {
    const res = await request(`${base}${req.url}`, {
      method: req.method as "POST",
      headers: forwardHeaders(req.headers),
      body: payload.length || !["GET", "HEAD"].includes(req.method ?? "GET") ? payload : undefined,
      dispatcher: agent,
    })
    const answer = Buffer.from(await res.body.arrayBuffer())
    return { status: res.statusCode, headers: forwardHeaders(res.headers as IncomingMessage["headers"]), body: answer }
  }

  const answer = (res: ServerResponse, status: number, payload: Buffer | string, headers: Record<string, string | string[]> = {}) => {
    if (!res.writableEnded && !res.destroyed) {
      res.writeHead(status, headers)
      res.end(payload)
    }
  }

  const releaseHeld = () => {
    const waiting = held
    held = []
    for (const release of waiting) {
      release()
    }
  }

  const toStore = async (req: IncomingMessage, res: ServerResponse, payload: Buffer) => {
    try {
      const out = await forward(storeUrl, req, payload)
      answer(res, out.status, out.body, out.headers)
      const { id, kind } = about(payload)
      if (id && out.status >= 200 && out.status < 300) {
        acceptances.set(id, [...(acceptances.get(id) ?? []), { kind, at: Date.now() }])
      }
    } catch {
      note(payload, "answered 502 (store down)")
      counts.storeUnreachable++
      answer(res, 502, "the store did not answer")
    }
  }

  const delivery = async (req: IncomingMessage, res: ServerResponse, payload: Buffer) => {
    counts.deliveries++
    const draw = random()
    // A binding's result comes once and is the only way the store learns the card: losing it loses a card, never money.
    const faulty = active && about(payload).purpose !== "token"
    if (faulty && draw < rates.drop) {
      note(payload, "dropped")
      counts.dropped++
      answer(res, 200, "{}", { "content-type": "application/json" })
      return
    }
    if (faulty && draw < rates.drop + rates.reorder) {
      note(payload, "reordered")
      counts.reordered++
      await new Promise<void>((resolve) => {
        held.push(resolve)
        setTimeout(resolve, REORDER_MAX_HOLD_MS).unref()
      })
      await toStore(req, res, payload)
      return
    }
    const duplicate = active && draw < rates.drop + rates.reorder + rates.duplicate
    note(payload, duplicate ? "duplicated" : "forwarded")
    await toStore(req, res, payload)
    releaseHeld()
    if (duplicate) {
      counts.duplicated++
      void sleep(random() * 3_000).then(() =>
        forward(storeUrl, req, payload).catch(() => {
          counts.storeUnreachable++
        })
      )
    }
  }

  const armReadFault = async (read: (typeof READS)[number]) => {
    const timeout = random() < 0.5
    if (timeout) {
      counts.readTimeouts++
    } else {
      counts.reads5xx++
    }
    const fault = timeout
      ? { kind: "timeout", holdMs: READ_TIMEOUT_HOLD_MS, then: "drop" }
      : { kind: "http500", applied: false }
    await fetch(`${sandbox.controlUrl}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...fault, api: read.api, endpoint: read.endpoint, merchantId: sandbox.defaultMerchant.merchantId, count: 1 }),
    }).then((r) => r.text())
  }

  const toService = async (req: IncomingMessage, res: ServerResponse, payload: Buffer) => {
    const path = (req.url ?? "").split("?")[0]
    const read = req.method === "GET" ? READS.find((r) => r.pattern.test(path)) : undefined
    if (read) {
      counts.reads++
      if (active && random() < rates.readFault) {
        await armReadFault(read)
      }
    }
    try {
      const out = await forward(sandbox.url, req, payload)
      answer(res, out.status, out.body, out.headers)
    } catch {
      // The sandbox dropped the connection (a timeout fault): so do we.
      res.destroy()
    }
  }

  const server = createServer((req, res) => {
    void body(req).then((payload) => ((req.url ?? "").startsWith("/hooks/") ? delivery(req, res, payload) : toService(req, res, payload)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    /** Deliveries about one transaction or payment intent and what the proxy did with each. */
    fatesOf: (serviceId: string) => fates.get(serviceId) ?? [],
    /** Deliveries about one transaction or payment intent that the store answered 2xx, and when. */
    acceptedOf: (serviceId: string) => acceptances.get(serviceId) ?? [],
    /** Faults on (the default) or off; forwarding continues either way. */
    setActive(on: boolean) {
      active = on
    },
    async close() {
      releaseHeld()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await agent.close()
    },
  }
}

import { Agent, request } from "undici"

/** What one outbound POST (a notification or webhook attempt) came to. */
export interface PostOutcome {
  /** HTTP status, when the receiver answered in time. */
  status?: number
  /** The start of the receiver's answer, for the delivery log. */
  body?: string
  timedOut: boolean
  error?: string
  durationMs: number
}

const RESPONSE_BODY_LIMIT = 1000

/**
 * The sandbox's outgoing deliveries: one keep-alive agent, a per-attempt
 * time-out that aborts the request, and a way to abandon everything in flight
 * at shutdown. Both APIs' delivery schedules use it.
 */
export class Outbound {
  readonly #inFlight = new Set<AbortController>()
  readonly #agent = new Agent({ keepAliveTimeout: 1_000, connections: 16 })

  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
    const outcome: PostOutcome = { timedOut: false, durationMs: 0 }
    const started = Date.now()
    const controller = new AbortController()
    this.#inFlight.add(controller)
    const timer = setTimeout(() => {
      outcome.timedOut = true
      controller.abort()
    }, timeoutMs)
    try {
      const res = await request(url, { method: "POST", headers, body, signal: controller.signal, dispatcher: this.#agent })
      const answer = await res.body.text()
      outcome.status = res.statusCode
      outcome.body = answer.slice(0, RESPONSE_BODY_LIMIT)
    } catch (err) {
      outcome.error = outcome.timedOut ? `no answer within ${timeoutMs} ms` : describe(err)
    } finally {
      clearTimeout(timer)
      this.#inFlight.delete(controller)
    }
    outcome.durationMs = Date.now() - started
    return outcome
  }

  /** Abandons attempts in progress (shutdown). */
  async close(): Promise<void> {
    for (const controller of this.#inFlight) {
      controller.abort()
    }
    await this.#agent.destroy().catch(() => {})
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code
    return typeof code === "string" ? `${code}: ${err.message}` : err.message
  }
  return String(err)
}

/**
 * The outcome of each webhook event, by event id. Core's subscriber and this
 * plugin's both ask the provider about every delivery, and the service may
 * deliver an event several times (same `evt_` id): the first ask verifies,
 * reads the service and applies refund updates; every later ask for the same
 * event gets that result without doing any of it again. The workflows the
 * result triggers are idempotent, so a duplicate that arrives after this
 * in-memory record is gone (restart, another instance) still changes nothing.
 */
export class EventResults<T> {
  readonly #results = new Map<string, { at: number; result: Promise<T> }>()

  constructor(
    private readonly ttlMs = 48 * 3_600_000,
    private readonly max = 20_000
  ) {}

  /** The result for `id`, computed once. */
  once(id: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    const known = this.#results.get(id)
    if (known && now - known.at < this.ttlMs) {
      return known.result
    }
    const result = compute()
    // A failed computation is not remembered: the next delivery tries again.
    result.catch(() => this.#results.delete(id))
    this.#results.set(id, { at: now, result })
    if (this.#results.size > this.max) {
      // Maps iterate in insertion order: drop the oldest.
      this.#results.delete(this.#results.keys().next().value as string)
    }
    return result
  }
}

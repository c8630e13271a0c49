import type { Persistable } from "./state"

export type ApiName = "hosted" | "embedded"

/**
 * How many authenticated calls each API endpoint answered, per merchant, so a
 * test or a benchmark can tell how often a store read the service (say, reads
 * per notification). Counted after authentication, faults included: a call
 * answered with an injected 500 was still made.
 */
export class ApiCalls implements Persistable {
  readonly name = "apiCalls"
  private counts: Record<string, number> = {}

  count(api: ApiName, merchantId: string, endpoint: string): void {
    const key = `${api} ${merchantId} ${endpoint}`
    this.counts[key] = (this.counts[key] ?? 0) + 1
  }

  /** `[{ api, merchantId, endpoint, calls }]`, optionally for one API and merchant. */
  list(filter: { api?: string; merchantId?: string } = {}) {
    return Object.entries(this.counts)
      .map(([key, calls]) => {
        const [api, merchantId, ...endpoint] = key.split(" ")
        return { api, merchantId, endpoint: endpoint.join(" "), calls }
      })
      .filter((row) => (!filter.api || row.api === filter.api) && (!filter.merchantId || row.merchantId === filter.merchantId))
  }

  dump(): unknown {
    return this.counts
  }

  load(data: unknown): void {
    this.counts = typeof data === "object" && data !== null ? { ...(data as Record<string, number>) } : {}
  }

  reset(): void {
    this.counts = {}
  }
}

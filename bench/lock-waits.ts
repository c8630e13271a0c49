// Time PostgreSQL backends spent waiting on heavyweight locks (rows, relations, transactions) during a
// phase, sampled from pg_stat_activity: where a flash sale of one SKU serialises in the database.
import { setTimeout as sleep } from "node:timers/promises"

const SAMPLE_MS = 100

export interface LockWaits {
  /** Backend-seconds spent waiting (waiting backends per sample × the sample interval). */
  seconds: number
  /** The same by wait event (`tuple`, `transactionid`, `relation`, …). */
  byEvent: Record<string, number>
  /** The statements that waited longest, whitespace collapsed. */
  top: Array<{ seconds: number; query: string }>
}

type Sql = <T extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>

/** Samples until `stop()`; the sampler's own statements are the harness's (left out of the statement counts). */
export function watchLockWaits(sql: Sql) {
  const byEvent = new Map<string, number>()
  const byQuery = new Map<string, number>()
  let running = true
  const loop = (async () => {
    while (running) {
      const rows = await sql<{ wait_event: string; query: string }>(
        `select wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
           from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`
      ).catch(() => [])
      for (const row of rows) {
        byEvent.set(row.wait_event, (byEvent.get(row.wait_event) ?? 0) + 1)
        byQuery.set(row.query, (byQuery.get(row.query) ?? 0) + 1)
      }
      await sleep(SAMPLE_MS)
    }
  })()
  const seconds = (samples: number) => (samples * SAMPLE_MS) / 1000
  return {
    async stop(): Promise<LockWaits> {
      running = false
      await loop
      return {
        seconds: seconds([...byEvent.values()].reduce((a, b) => a + b, 0)),
        byEvent: Object.fromEntries([...byEvent].map(([event, n]) => [event, seconds(n)])),
        top: [...byQuery]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([query, n]) => ({ seconds: seconds(n), query })),
      }
    },
  }
}

// The SQL statements PostgreSQL ran for a store, from pg_stat_statements (loaded by
// startPostgres({ statementStats: true })), less the harness's own.
import type pg from "pg"

/** Calls so far per statement shape of one database, and how many of them the harness made. */
export interface StatementCounts {
  calls: Map<string, { calls: number; query: string }>
  harness: number
}

export interface StatementsInPhase {
  /** Statements the Medusa processes ran in the phase. */
  total: number
  /** The most frequent shapes, for reading where a phase's statements go (JSON output only). */
  top: Array<{ calls: number; query: string }>
}

export async function enableStatementStats(pool: pg.Pool): Promise<void> {
  await pool.query("create extension if not exists pg_stat_statements")
}

/** Read outside the harness's counted `sql`, and left out of the counts by its text. */
export async function statementCounts(pool: pg.Pool, harnessStatements: number): Promise<StatementCounts> {
  const { rows } = await pool.query<{ queryid: string; calls: string; query: string }>(
    `select queryid::text, calls::text, query from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'`
  )
  return { calls: new Map(rows.map((row) => [row.queryid, { calls: Number(row.calls), query: row.query }])), harness: harnessStatements }
}

export function statementsSince(before: StatementCounts, after: StatementCounts, top = 300): StatementsInPhase {
  const shapes = [...after.calls].map(([id, { calls, query }]) => ({ calls: calls - (before.calls.get(id)?.calls ?? 0), query }))
  const counted = shapes.reduce((sum, shape) => sum + shape.calls, 0)
  return {
    total: counted - (after.harness - before.harness),
    top: shapes
      .filter((shape) => shape.calls > 0)
      .sort((a, b) => b.calls - a.calls)
      .slice(0, top),
  }
}

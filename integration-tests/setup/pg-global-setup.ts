// A throw-away PostgreSQL for the run, unless DB_HOST/DB_PORT/DB_USERNAME point at one.
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "../../scripts/postgres"

export default async function globalSetup() {
  process.env.MEDUSA_DISABLE_TELEMETRY = "true"
  if (process.env.DB_HOST && process.env.DB_PORT && process.env.DB_USERNAME) {
    return
  }
  const started = await startPostgres({ dir: await mkdtemp(join(tmpdir(), "mptw-pg-")), port: Number(process.env.PG_PORT) || undefined })
  Object.assign(process.env, started.env)
  ;(globalThis as { __MPTW_PG__?: { stop(): Promise<void> } }).__MPTW_PG__ = started.pg
}

/**
 * A benchmark's store on a scratch directory: its own embedded PostgreSQL and a fresh store
 * (`startBenchStore`), both stopped and the directory removed however the run ends.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "../scripts/postgres"
import { type BenchStore, type BenchStoreOptions, startBenchStore } from "./store"

export async function withScratchStore<T>(name: string, options: Omit<BenchStoreOptions, "postgres" | "dir">, use: (store: BenchStore) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `mptw-${name}-`))
  // PostgreSQL runs as the postgres user and must traverse it (mkdtemp makes it 0700).
  await chmod(dir, 0o755)
  const postgres = await startPostgres({ dir: join(dir, "pg") })
  try {
    const store = await startBenchStore({ ...options, postgres, dir })
    try {
      return await use(store)
    } finally {
      await store.stop()
    }
  } finally {
    await postgres.pg.stop().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs a harness's main: exit 0, or 1 with the failure printed under the harness's name. */
export function runHarness(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(`[${name}] harness failure: ${error instanceof Error ? (error.stack ?? error.message) : error}`)
      process.exit(1)
    }
  )
}

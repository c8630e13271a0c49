import { randomBytes } from "node:crypto"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { migratedDatabase } from "./store-database"

type RunnerOptions = Omit<Parameters<typeof medusaIntegrationTestRunner>[0], "dbName">

/**
 * Medusa's integration test runner, started on a copy of the migrated store
 * instead of an empty database: its own migration pass then finds nothing to
 * do. Everything else (app boot, restore between tests, drop at the end) is the runner's.
 */
export function storeTestRunner(options: RunnerOptions) {
  const dbName = `mptw_test_${randomBytes(6).toString("hex")}`
  // Registered before the runner's own hooks, so it runs first.
  beforeAll(() => migratedDatabase(dbName, process.env), 300_000)
  return medusaIntegrationTestRunner({ ...options, dbName })
}

import { randomBytes } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import {
  clearInstances,
  closeWaitingroomClient,
  configLoaderOverride,
  createPostgresDatabaseTemplate,
  dropPostgresDatabaseTemplate,
  restorePostgresDatabaseFromTemplate,
  startApp,
  TestDatabaseUtils,
} from "@medusajs/test-utils"
import axios, { type AxiosInstance } from "axios"
import { migratedDatabase } from "./store-database"

export interface StoreTestOptions {
  /** Typed as Medusa's runner types it: the tests read answers of many shapes. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  api: any
  getContainer: () => MedusaContainer
  dbConfig: { dbName: string; clientUrl: string }
}

/**
 * The app of `medusa-config.ts` on a copy of the migrated store, booted once
 * per file as `medusa start` boots it, with Medusa's test utilities. Medusa's
 * own runner boots the app twice and runs every module's migrations first;
 * on a copy of the migrated template there is nothing to migrate, and that
 * pass was two thirds of each file's start-up. As in Medusa's runner, every
 * test starts from the database as the file's `beforeAll` hooks left it.
 */
export function storeTestRunner({ env = {}, testSuite }: { env?: Record<string, string>; testSuite: (options: StoreTestOptions) => void }) {
  const dbName = `mptw_test_${randomBytes(6).toString("hex")}`
  const templateName = `${dbName}_template`
  const clientUrl = TestDatabaseUtils.getDatabaseURL(dbName)
  let container: MedusaContainer | undefined
  let api: AxiosInstance | undefined
  let shutdown: () => Promise<unknown> = async () => undefined
  let snapshotTaken = false

  return describe("", () => {
    beforeAll(async () => {
      await migratedDatabase(dbName, process.env)
      await configLoaderOverride(process.cwd(), { clientUrl })
      // startApp sets `env` in process.env until its shutdown.
      const started = await startApp({ cwd: process.cwd(), env })
      container = started.container
      shutdown = started.shutdown
      api = axios.create({ baseURL: `http://localhost:${started.port}` })
    }, 300_000)

    beforeEach(async () => {
      // The first test's beforeEach runs after every beforeAll of the file: its state is what each test starts from.
      if (!snapshotTaken) {
        await createPostgresDatabaseTemplate({ databaseName: dbName, templateName })
        snapshotTaken = true
      } else {
        await restorePostgresDatabaseFromTemplate({ databaseName: dbName, templateName })
      }
    })

    // A test is over when the workflows it started are.
    afterEach(() => container && workflowsDone(container))

    afterAll(async () => {
      await shutdown()
      await clearInstances()
      if (snapshotTaken) {
        await dropPostgresDatabaseTemplate(templateName)
      }
      await TestDatabaseUtils.dbTestUtilFactory().shutdown(dbName)
      await closeWaitingroomClient()
    }, 120_000)

    const use = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) {
        throw new Error(`the store's ${what} is used before the file's beforeAll started it`)
      }
      return value
    }
    testSuite({
      // The file's tests read `api` when they run, after the app started.
      api: new Proxy({} as AxiosInstance, { get: (_, key) => use(api, "api")[key as keyof AxiosInstance] }),
      getContainer: () => use(container, "container"),
      dbConfig: { dbName, clientUrl },
    })
  })
}

/** Waits until the workflow engine holds no execution still running (at most a minute). */
async function workflowsDone(container: MedusaContainer) {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE, { allowUnregistered: true })
  if (!engine) {
    return
  }
  const deadline = Date.now() + 60_000
  while ((await engine.listWorkflowExecutions({ state: { $nin: ["not_started", "done", "reverted", "failed"] } })).length) {
    if (Date.now() > deadline) {
      throw new Error("workflow executions still running a minute after the test")
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { startMedusaProcess, type MedusaProcess } from "../../scripts/medusa-process"
import { freePort } from "../../scripts/postgres"
import { control, HOOK_PATH, STOREFRONT } from "../helpers/hosted-store"
import { medusaCommand, seededDatabase } from "../helpers/store-database"

/**
 * The store with its admin, for the admin's browser test. Medusa's test runner turns the admin off, so
 * this is one `medusa start` (shared mode, in-memory modules) on a seeded database: with NODE_ENV
 * development it serves the admin from Vite's dev middleware, which compiles src/admin on the first page.
 */
export interface AdminStore {
  url: string
  sandbox: SandboxHandle
  admin: { email: string; password: string }
  /** The store's environment, for a `medusa exec` against its database. */
  env: NodeJS.ProcessEnv
  logs: string[]
  stop(): Promise<void>
}

export async function startAdminStore(): Promise<AdminStore> {
  const undo: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const step of undo.splice(0).reverse()) {
      await step().catch((error) => console.error(`admin-store: stopping: ${(error as Error).message}`))
    }
  }
  try {
    const sandbox = await startSandbox({ tickMs: 100 })
    undo.push(() => sandbox.close())
    const port = await freePort()
    const url = `http://localhost:${port}`
    await control(sandbox, "PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${url}${HOOK_PATH}` })
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      MEDUSA_DISABLE_TELEMETRY: "true",
      MEDUSA_ADMIN_DISABLED: "false",
      TW_SANDBOX_URL: sandbox.url,
      STOREFRONT_URL: STOREFRONT,
      ADMIN_CORS: url,
      AUTH_CORS: `${url},${STOREFRONT}`,
      // No job settles what the test seeds (seed-payments-history.ts) before the page reads it.
      TW_RECONCILIATION: "off",
    }
    const database = await seededDatabase(env)
    undo.push(() => database.drop())
    env.DATABASE_URL = database.url
    const admin = { email: "admin@medusa-payment-tw.test", password: "admin-browser-1" }
    await medusaCommand(["user", "-e", admin.email, "-p", admin.password], env)
    const logs: string[] = []
    const medusa: MedusaProcess = await startMedusaProcess({ mode: "shared", port, env, logs })
    undo.push(() => medusa.stop())
    return { url, sandbox, admin, env, logs, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

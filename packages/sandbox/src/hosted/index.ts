import type { SandboxCore } from "../context"
import type { ControlRouter } from "../control/routes"
import type { Holds } from "../holds"
import type { Mount } from "../server"
import { createHostedApi } from "./api"
import type { HostedContext } from "./context"
import { addHostedControlRoutes } from "./control-routes"
import { registerRemittanceJob } from "./endpoints/refunds"
import { HostedNotifier } from "./notifications"
import { createHostedPages } from "./pages"
import { HostedPayments } from "./payments"
import { HostedRecords } from "./records"
import { Recurring } from "./recurring"
import { registerPayoutJob } from "./transactions"

export const HOSTED_API_PREFIX = "/hosted-api"

/** Notification delivery of spec 6.1: at most 3 attempts; retry intervals are a sandbox choice. */
export const HOSTED_RETRY_DELAYS_SEC = [60, 300]
export const DEFAULT_NOTIFICATION_TIMEOUT_MS = 10_000

/** Wires the hosted-checkout emulation into the shared core: API, pages, jobs, control routes. */
export function mountHosted(
  core: SandboxCore,
  control: ControlRouter,
  holds: Holds,
  options: { notificationTimeoutMs: number }
): { mounts: Mount[]; endpoints: string[] } {
  const records = new HostedRecords()
  core.store.register(records)
  const ctx: HostedContext = { core, records, notifier: new HostedNotifier(core) }
  core.deliveries.registerPolicy("hosted", {
    maxAttempts: 3,
    retryDelaysSec: HOSTED_RETRY_DELAYS_SEC,
    timeoutMs: options.notificationTimeoutMs,
  })
  registerPayoutJob(ctx)
  registerRemittanceJob(ctx)
  const recurring = new Recurring(ctx)
  const payments = new HostedPayments(ctx, recurring)
  const api = createHostedApi(ctx, recurring, holds)
  addHostedControlRoutes(control, ctx, payments, recurring)
  return { mounts: [api.mount, createHostedPages(ctx, payments)], endpoints: api.endpoints }
}

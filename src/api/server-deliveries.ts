import type { Logger, MedusaContainer, ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import pLimit from "p-limit"
import { handlePaymentDelivery } from "../deliveries/handle-payment-delivery"
import type { PluginProvider } from "../providers/plugin-providers"

/** Deliveries a server process keeps for itself at most; beyond that, new ones are the workers' alone. */
export const MAX_HELD = 1_000

interface ServerShare {
  limit: pLimit.Limit
  /** Deliveries waiting for their delay or a slot, or being handled. */
  held: number
}

const shares = new Map<string, ServerShare>()

/**
 * With `workerMode: "server"`, the workers would do all the work of a flash
 * sale while the server only takes deliveries in: one busy core, the others
 * idle. So the server also handles what it took in, after the same delay and
 * `deliveries.serverConcurrency` at a time. The queued copy stays the durable
 * one: the server handles its copy only when no other copy is on the same
 * payment, and otherwise leaves it to the queued copy, which waits its turn
 * and checks again (`handleDeliveryOnce`). So a delivery the workers took
 * first costs the server one lock attempt, and a server slot never waits.
 * Held deliveries die with the process; their queued copies do not.
 */
export function shareWithServer(
  container: MedusaContainer,
  provider: PluginProvider,
  payload: ProviderWebhookPayload["payload"],
  requeue: () => Promise<void>
): void {
  const { projectConfig } = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  if (projectConfig.workerMode !== "server" || provider.deliveries.serverConcurrency === 0) {
    return
  }
  holdDelivery(provider.key, provider.deliveries, {
    handle: () => handlePaymentDelivery(container, provider, provider.api.readDelivery(payload).delivery, { queuedElsewhere: true }),
    requeue,
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
  })
}

export interface HeldDelivery {
  handle: () => Promise<void>
  /** Queues the delivery again: the workers' copy may already have been skipped while the server held it. */
  requeue: () => Promise<void>
  logger: Pick<Logger, "error">
}

/**
 * Handles one delivery in this process after `delayMs`, `serverConcurrency`
 * at a time per provider, `MAX_HELD` at most. When handling fails it is
 * queued again; when that fails too, the error's class alone is logged (a
 * queue error can quote the payload) and the reconciliation job settles it.
 * False when the server already holds `MAX_HELD` and leaves it to the workers.
 */
export function holdDelivery(
  key: string,
  { delayMs, serverConcurrency }: { delayMs: number; serverConcurrency: number },
  { handle, requeue, logger }: HeldDelivery
): boolean {
  let share = shares.get(key)
  if (!share) {
    share = { limit: pLimit(serverConcurrency), held: 0 }
    shares.set(key, share)
  }
  if (share.held >= MAX_HELD) {
    return false
  }
  const { limit } = share
  share.held++
  const release = () => share.held--
  setTimeout(() => {
    limit(handle)
      .catch(() =>
        requeue().catch((error: Error) =>
          logger.error(`${key}: a delivery the server could not handle was not queued again (${error?.name ?? "error"}); the reconciliation job will settle it`)
        )
      )
      .finally(release)
  }, delayMs).unref()
  return true
}

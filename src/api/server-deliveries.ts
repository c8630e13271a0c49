import type { MedusaContainer, ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import pLimit from "p-limit"
import { handlePaymentDelivery } from "../workflows/handle-payment-delivery"
import type { PluginProvider } from "../workflows/plugin-providers"

/** Deliveries a server process keeps for itself at most; beyond that, new ones are the workers' alone. */
const MAX_HELD = 1_000

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
 * one: whichever process claims a delivery first handles it and the other
 * skips it, so a delivery the workers claimed first costs the server one lock
 * attempt. When the server's attempt fails, it queues the delivery again
 * (`requeue`), since the workers' copy may already have been skipped. Held
 * deliveries die with the process; their queued copies do not.
 */
export function shareWithServer(
  container: MedusaContainer,
  provider: PluginProvider,
  payload: ProviderWebhookPayload["payload"],
  requeue: () => Promise<void>
): void {
  const { projectConfig } = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const concurrency = provider.deliveries.serverConcurrency
  if (projectConfig.workerMode !== "server" || concurrency === 0) {
    return
  }
  let share = shares.get(provider.key)
  if (!share) {
    share = { limit: pLimit(concurrency), held: 0 }
    shares.set(provider.key, share)
  }
  if (share.held >= MAX_HELD) {
    return
  }
  const { limit } = share
  share.held++
  const release = () => share.held--
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  setTimeout(() => {
    limit(() => handlePaymentDelivery(container, provider, payload))
      .catch(() =>
        requeue().catch((error: Error) =>
          logger.error(`${provider.key}: a delivery the server could not handle was not queued again (${error?.name ?? "error"}); the reconciliation job will settle it`)
        )
      )
      .finally(release)
  }, provider.deliveries.delayMs).unref()
}

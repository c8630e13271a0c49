import type { MedusaContainer } from "@medusajs/framework/types"
import { watchEventBus } from "./event-bus-activity"

/** The app and sandbox that `settle()` waits on: one pair per test file (jest loads helpers once per file). */
let watched: { container: MedusaContainer; controlUrl: string } | undefined

/**
 * Makes `settle()` wait on this app and sandbox, and starts counting the app's
 * events. Call it before the first payment of a test file; `seedStore` does.
 */
export function watchStore(container: MedusaContainer, sandbox: { controlUrl: string }) {
  watchEventBus(container)
  watched = { container, controlUrl: sandbox.controlUrl }
}

/**
 * Moving the sandbox clock by 0 s runs every job due now (notification and
 * webhook attempts among them) and waits for those already running: once it
 * answers, every delivery due so far has been made and answered by the store.
 */
async function runDueDeliveries(controlUrl: string) {
  const res = await fetch(`${controlUrl}/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds: 0 }),
  })
  if (!res.ok) {
    throw new Error(`sandbox POST /clock/advance: ${res.status} ${await res.text()}`)
  }
}

/**
 * Waits until nothing more happens by itself: the sandbox has made every
 * notification and webhook delivery due now, and the store has acted on every
 * event it took in (the plugin's intake hands a delivery to its subscriber
 * after a delay, TW_DELIVERY_DELAY_MS). Rounds repeat while acting produces
 * new deliveries (a refund's notification, say). Work the sandbox has scheduled for later (retries, delay
 * faults, held notifications) is not waited for.
 *
 * Use it before asserting that something did not happen, and at the end of a
 * test so that no late delivery lands in the next test's restored database.
 */
export async function settle(timeoutMs = 60_000): Promise<void> {
  if (!watched) {
    throw new Error("settle(): call watchStore(container, sandbox) first (seedStore does)")
  }
  const activity = watchEventBus(watched.container)
  const deadline = Date.now() + timeoutMs
  let seen = -1
  for (;;) {
    await runDueDeliveries(watched.controlUrl)
    await activity.whenIdle(deadline - Date.now(), "the store to act on the deliveries it received")
    if (activity.emitted === seen) {
      return
    }
    seen = activity.emitted
  }
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../lib/log"
import { providerId } from "../providers/core/provider-keys"
import type { PluginProvider } from "../providers/plugin-providers"
import { processTwPaymentWorkflow } from "../workflows/payments/process-tw-payment"
import { advanceTwSweepCursorWorkflow } from "../workflows/sweep/advance-tw-sweep-cursor"
import { SweepCursors } from "./sweep-cursors"

/** Core's completion holds the cart's lock for two minutes at most: an order older than this is no longer being placed. */
const PLACING_MS = 10 * 60_000
/** Where the walk starts on a store that has no cursor yet. */
const FIRST_WINDOW_MS = 14 * 24 * 3_600_000
/** An order whose run keeps failing is given up on (with an error line) after this long. */
const RETRY_MS = 24 * 3_600_000
/** The walk's cursor, kept beside the service sweeps' (module `tw_payment_sweep`). */
const CURSOR = "orders-without-payment"
/** Sessions that reached core's authorization: an order awaiting a code or a processing card is one, and the store's walk follows it. */
const AUTHORIZING = ["authorized", "captured", "pending_authorization"]

interface OrderRow {
  id: string
  created_at: string | Date
  payment_collections?: Array<{
    payments?: Array<{ canceled_at?: unknown } | null> | null
    payment_sessions?: Array<{ provider_id: string; status: string; data: Record<string, unknown> | null } | null> | null
  } | null> | null
}

/** An order and, when no payment stands on it, the run that settles it: the provider and the payment to read. */
interface CheckedOrder {
  id: string
  createdAt: string
  run?: { provider: PluginProvider; serviceId: string }
}

/**
 * The orders a completion cut short may have left: core's completion places
 * the order, then reserves its stock and records its payment, and undoes the
 * order if that fails; a process killed in between leaves an order with no
 * payment that nothing undoes. Each order is checked once, once no completion
 * can still be placing it, by a cursor over creation times; one with no live
 * payment whose session of `providers` never reached authorization runs
 * through `process-tw-payment`, whose decision records its payment or cancels
 * it. A run that fails is tried again each run, for a day.
 */
export async function checkCutShortOrders(container: MedusaContainer, providers: PluginProvider[]): Promise<void> {
  if (!providers.length) {
    return
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const cursor = await new SweepCursors(container).load(CURSOR)
  const now = Date.now()
  const budget = Math.min(...providers.map((provider) => provider.reconciliation.maxPerRun))
  const retry = { ...cursor.retry }
  const retried = Object.keys(retry).length ? await readOrders(container, providers, { id: Object.keys(retry) }, budget) : []
  const placed = await readOrders(
    container,
    providers,
    { created_at: { $gte: new Date(cursor.position ?? now - FIRST_WINDOW_MS), $lte: new Date(now - PLACING_MS) } },
    budget * 4
  )
  // Orders placed in the same millisecond as the cursor's position were checked when it was saved.
  const fresh = placed.filter((order) => !(order.createdAt === cursor.position && cursor.handled[order.id]))

  let { position, handled } = cursor
  let runs = 0
  const settle = async (order: CheckedOrder) => {
    if (!order.run) {
      return
    }
    const { provider, serviceId } = order.run
    if (runs++ > 0) {
      await sleep(1000 / provider.reconciliation.requestsPerSecond)
    }
    try {
      await processTwPaymentWorkflow(container).run({ input: { provider: provider.key, serviceId } })
      delete retry[order.id]
    } catch (error) {
      const since = retry[order.id] ?? now
      const message = untrusted((error as Error).message, 300)
      if (now - since > RETRY_MS) {
        delete retry[order.id]
        logger.error(`medusa-payment-tw: order ${order.id} has no payment and could not be settled for a day; check it by hand: ${message}`)
      } else {
        retry[order.id] = since
        logger.warn(`medusa-payment-tw: checking order ${order.id} without a payment failed; tried again next run: ${message}`)
      }
    }
  }
  for (const order of retried) {
    await settle(order)
  }
  // An order settled since it failed (or gone) is no longer one to retry.
  for (const id of Object.keys(retry)) {
    if (!retried.some((order) => order.id === id && order.run)) {
      delete retry[id]
    }
  }
  for (const order of fresh) {
    if (order.run && runs >= budget) {
      break
    }
    await settle(order)
    handled = order.createdAt === position ? { ...handled, [order.id]: now } : { [order.id]: now }
    position = order.createdAt
  }
  const state = { position, handled, retry }
  if (JSON.stringify(state) !== JSON.stringify({ position: cursor.position, handled: cursor.handled, retry: cursor.retry ?? {} })) {
    await advanceTwSweepCursorWorkflow(container).run({ input: { key: CURSOR, state } })
  }
}

/** Orders by `filters` (not cancelled), oldest first, each with the run that settles it when no payment stands on it. */
async function readOrders(container: MedusaContainer, providers: PluginProvider[], filters: Record<string, unknown>, take: number): Promise<CheckedOrder[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "created_at",
      "payment_collections.payments.canceled_at",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.data",
    ],
    filters: { ...filters, status: { $ne: "canceled" } },
    pagination: { take, order: { created_at: "ASC" } },
  })
  return (data as OrderRow[]).map((order) => ({ id: order.id, createdAt: new Date(order.created_at).toISOString(), run: runFor(order, providers) }))
}

function runFor(order: OrderRow, providers: PluginProvider[]): CheckedOrder["run"] {
  const collections = (order.payment_collections ?? []).filter((c) => !!c)
  if (collections.some((c) => (c.payments ?? []).some((p) => p && !p.canceled_at))) {
    return undefined
  }
  for (const session of collections.flatMap((c) => c.payment_sessions ?? [])) {
    if (!session || AUTHORIZING.includes(session.status)) {
      continue
    }
    const provider = providers.find((p) => providerId(p.key) === session.provider_id)
    const serviceId = provider && session.data?.[provider.api.idField]
    if (provider && typeof serviceId === "string") {
      return { provider, serviceId }
    }
  }
  return undefined
}

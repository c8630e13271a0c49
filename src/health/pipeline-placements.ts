/**
 * Carts whose order the payment pipeline is placing in this process right now. Core's completion emits
 * `order.placed` before the pipeline's own step records the placement; the `order.placed` reader leaves
 * these to it, so an order is counted once, under the path that placed it. (An event handled by another
 * process may still guess `return` first: the pipeline's row replaces it.)
 */
const placing = new Map<string, number>()

/** How long after its completion a cart is still the pipeline's: its event is handled within this time. */
const HOLD_MS = 60_000

export function markPipelinePlacing(cartId: string, now = Date.now()): void {
  for (const [cart, until] of placing) {
    if (until < now) {
      placing.delete(cart)
    }
  }
  placing.set(cartId, now + HOLD_MS)
}

export function isPipelinePlacing(cartId: string, now = Date.now()): boolean {
  return (placing.get(cartId) ?? 0) >= now
}

/**
 * Carts whose order the payment pipeline is placing in this process right now. Core's completion runs its
 * `orderCreated` hook (`workflows/hooks/cart-order-created.ts`) inside the pipeline's own completion, before
 * the pipeline's step records the placement; the hook leaves these to it, so an order is counted once, under
 * the path that placed it.
 */
const placing = new Map<string, number>()

/** How long a cart stays the pipeline's once it starts completing it: its completion, retries included, ends within this time. */
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

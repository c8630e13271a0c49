// What every chaos shopper works with: the store, the run's seeded choices, the merchant's admin, and the store going down under it.
import { setTimeout as sleep } from "node:timers/promises"
import type { ChaosCatalog } from "./chaos-catalog"
import { type BenchStore, HarnessError } from "./store"

export interface ShopperContext {
  store: BenchStore
  /** The plan, products and places the new scenarios need (chaos-catalog.ts). */
  catalog: ChaosCatalog
  random: () => number
  /** Share of paying shoppers who come back to the storefront, which completes the cart itself. */
  returnRate: number
  /** Admin API bearer header, for refunds and cancels. */
  admin: () => Promise<Record<string, string>>
  /** Resolves when the store answers again (it may be down: killed and restarting). */
  whenUp: () => Promise<void>
  say: (line: string) => void
}

export interface Shopper {
  index: number
  scenario: string
  cartId: string
  /** Harness problems (not the store's): the shopper could not do what the scenario says. */
  problems: string[]
  /** What the store answered that breaks an invariant by itself (a saved-card session on someone else's cart), by invariant. */
  findings: Array<{ invariant: "I4" | "I6"; line: string }>
  /** A transaction the attacker sent a forged notification for before it was paid (I6). */
  forgedTransactionId?: string
  /** Work that happens later at the service or in the admin; resolves when done. */
  deferred?: Promise<void>
}

const isDown = (error: unknown) => error instanceof TypeError || (error instanceof HarnessError && / answered 50[234]/.test(error.message))

/** A store API call by a shopper or the merchant: while the store is down, wait for it and try again. */
export async function whileDown<T>(ctx: ShopperContext, call: () => Promise<T>, tries = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (!isDown(error) || attempt >= tries) {
        throw error
      }
      await ctx.whenUp()
      await sleep(500)
    }
  }
}

export const between = (random: () => number, min: number, max: number) => min + random() * (max - min)

/** Polls `read` every 2 s until it gives a value or `timeoutMs` passes (then undefined). */
export async function poll<T>(read: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read().catch(() => undefined)
    if (value !== undefined || Date.now() > deadline) {
      return value
    }
    await sleep(2_000)
  }
}

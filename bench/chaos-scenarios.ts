/**
 * The shoppers of `npm run chaos`: each buys one cart and pays it one way.
 * What happens at the service right away (the page, the card frame) is done
 * in `shop`; what happens later (a cvs code paid or expiring at the counter, a
 * processing card settling, the merchant refunding) is returned as a deferred
 * step, so slow outcomes overlap instead of holding a shopper slot.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { pick } from "./seeded-random"
import { cardFields, completeCart, confirmCard, createCart, cvsFields, openPage, type PaymentSession, startSession, submitPage } from "./shopper"
import { type BenchStore, EMBEDDED_PROVIDER, HarnessError, HOSTED_PROVIDER } from "./store"

export const SCENARIO_WEIGHTS = {
  "hosted card paid": 18,
  "hosted card declined": 8,
  "hosted cvs paid": 10,
  "hosted cvs expired": 8,
  "hosted card refunded": 8,
  "hosted card, two tabs": 4,
  "embedded card paid": 16,
  "embedded card declined": 6,
  "embedded processing, succeeded": 8,
  "embedded processing, failed": 6,
  "embedded card refunded": 8,
}
export type Scenario = keyof typeof SCENARIO_WEIGHTS

/** What the store should end with for each scenario (the order's state, or none). */
export const EXPECTED: Record<Scenario, Array<"captured" | "refunded" | "canceled" | "none">> = {
  "hosted card paid": ["captured"],
  "hosted card declined": ["none", "canceled"],
  "hosted cvs paid": ["captured"],
  "hosted cvs expired": ["none", "canceled"],
  "hosted card refunded": ["refunded"],
  "hosted card, two tabs": ["captured"],
  "embedded card paid": ["captured"],
  "embedded card declined": ["none", "canceled"],
  "embedded processing, succeeded": ["captured"],
  "embedded processing, failed": ["none", "canceled"],
  "embedded card refunded": ["refunded"],
}

const CARDS = {
  hostedPaid: "4242424242424242",
  hostedRefused: "4000000000000051",
  embeddedPaid: "4242424242424242",
  embeddedDeclined: "4000000000000002",
  processingSucceeds: "4000000000007700",
  processingFails: "4000000000007718",
}

export interface ShopperContext {
  store: BenchStore
  random: () => number
  /** Share of paying shoppers who come back to the storefront, which completes the cart itself. */
  returnRate: number
  /** Admin API bearer header, for refunds. */
  admin: () => Promise<Record<string, string>>
  /** Resolves when the store answers again (it may be down: killed and restarting). */
  whenUp: () => Promise<void>
  say: (line: string) => void
}

export interface Shopper {
  index: number
  scenario: Scenario
  cartId: string
  /** Harness problems (not the store's): the shopper could not do what the scenario says. */
  problems: string[]
  /** Work that happens later at the service or in the admin; resolves when done. */
  deferred?: Promise<void>
}

const isDown = (error: unknown) => error instanceof TypeError || (error instanceof HarnessError && / answered 50[234]/.test(error.message))

/** A store API call by a shopper or the merchant: while the store is down, wait for it and try again. */
async function whileDown<T>(ctx: ShopperContext, call: () => Promise<T>, tries = 10): Promise<T> {
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

const between = (random: () => number, min: number, max: number) => min + random() * (max - min)

async function payHosted(session: PaymentSession, fields: Record<string, string>) {
  const url = String(session.data.checkoutUrl ?? "")
  await openPage(url)
  return submitPage(url, fields)
}

async function payEmbedded(ctx: ShopperContext, session: PaymentSession, card: string) {
  const secret = String(session.data.clientSecret ?? "")
  if (!secret) {
    throw new HarnessError(`cart ${session.cartId}: the embedded session holds no clientSecret`)
  }
  return confirmCard(ctx.store.sandbox, secret, card)
}

async function maybeReturn(ctx: ShopperContext, cartId: string) {
  if (ctx.random() < ctx.returnRate) {
    await whileDown(ctx, () => completeCart(ctx.store, cartId)).catch(() => undefined)
  }
}

/** Waits until the cart's order holds a captured payment (or gives up after `timeoutMs`), then refunds it through the admin API. */
async function refundWhenCaptured(ctx: ShopperContext, cartId: string, timeoutMs = 240_000): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [payment] = await ctx.store.sql<{ id: string }>(
      `select p.id from payment p join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id
        join order_cart oc on oc.cart_id = cpc.cart_id and oc.deleted_at is null
       where cpc.cart_id = $1 and p.captured_at is not null and p.canceled_at is null and p.deleted_at is null`,
      [cartId]
    )
    if (payment) {
      const headers = await ctx.admin()
      const { status, data } = await whileDown(ctx, () => ctx.store.api("POST", `/admin/payments/${payment.id}/refund`, {}, { headers, allowError: true }))
      if (status < 300) {
        return undefined
      }
      // A refund sent just before the crash may have been made although its answer never came; the retry is then refused.
      const [done] = await ctx.store.sql(
        `select 1 from payment p where p.id = $1 and (select coalesce(sum(r.amount), 0) from refund r where r.payment_id = p.id and r.deleted_at is null) >= p.amount`,
        [payment.id]
      )
      return done ? undefined : `refund of ${payment.id} answered ${status}: ${JSON.stringify(data).slice(0, 200)}`
    }
    if (Date.now() > deadline) {
      return `no captured order to refund after ${timeoutMs / 1000} s`
    }
    await sleep(2_000)
  }
}

export function chooseScenario(random: () => number): Scenario {
  return pick(random, SCENARIO_WEIGHTS)
}

export async function shop(ctx: ShopperContext, index: number, scenario: Scenario): Promise<Shopper> {
  const { store, random } = ctx
  const cartId = await whileDown(ctx, () => createCart(store, `chaos-${index}@example.test`))
  const shopper: Shopper = { index, scenario, cartId, problems: [] }
  const provider = scenario.startsWith("embedded") ? EMBEDDED_PROVIDER : HOSTED_PROVIDER
  const session = await whileDown(ctx, () => startSession(store, cartId, provider))
  const later = (work: () => Promise<string | undefined | void>, minMs: number, maxMs: number) => {
    shopper.deferred = sleep(between(random, minMs, maxMs))
      .then(work)
      .then((problem) => {
        if (problem) {
          shopper.problems.push(problem)
        }
      })
      .catch((error: Error) => {
        shopper.problems.push(error.message)
      })
  }
  const control = (path: string) => () => store.control("POST", path).then(() => undefined)

  switch (scenario) {
    case "hosted card paid":
      await payHosted(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      break
    case "hosted card declined":
      await payHosted(session, cardFields(CARDS.hostedRefused))
      break
    case "hosted cvs paid":
      await payHosted(session, cvsFields())
      later(control(`/transactions/${session.data.transactionId}/pay`), 2_000, 30_000)
      break
    case "hosted cvs expired":
      await payHosted(session, cvsFields())
      later(control(`/transactions/${session.data.transactionId}/expire`), 2_000, 30_000)
      break
    case "hosted card refunded":
      await payHosted(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      later(() => refundWhenCaptured(ctx, cartId), 1_000, 10_000)
      break
    case "hosted card, two tabs": {
      // The shopper starts over in a second tab (a new session replaces the first), then pays both pages.
      const second = await whileDown(ctx, () => startSession(store, cartId, HOSTED_PROVIDER, session.collectionId))
      await payHosted(second, cardFields(CARDS.hostedPaid))
      await payHosted(session, cardFields(CARDS.hostedPaid)).catch(() => undefined)
      break
    }
    case "embedded card paid":
      await payEmbedded(ctx, session, CARDS.embeddedPaid)
      await maybeReturn(ctx, cartId)
      break
    case "embedded card declined":
      await payEmbedded(ctx, session, CARDS.embeddedDeclined)
      break
    case "embedded processing, succeeded":
    case "embedded processing, failed": {
      const { intentStatus } = await payEmbedded(ctx, session, scenario.endsWith("succeeded") ? CARDS.processingSucceeds : CARDS.processingFails)
      if (intentStatus !== "processing") {
        shopper.problems.push(`confirming a processing card left the intent ${intentStatus}`)
      }
      await maybeReturn(ctx, cartId)
      later(control(`/payment-intents/${session.data.paymentIntentId}/processing-resolve`), 5_000, 40_000)
      break
    }
    case "embedded card refunded":
      await payEmbedded(ctx, session, CARDS.embeddedPaid)
      await maybeReturn(ctx, cartId)
      later(() => refundWhenCaptured(ctx, cartId), 1_000, 10_000)
      break
  }
  return shopper
}

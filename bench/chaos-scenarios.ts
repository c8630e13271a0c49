/**
 * The shoppers of `npm run chaos`: each buys one cart and pays it one way.
 * What happens at the service right away (the page, the card frame) is done
 * in `shop`; what happens later (a cvs code paid or expiring at the counter, a
 * processing card settling, the merchant refunding or cancelling) is returned
 * as a deferred step, so slow outcomes overlap instead of holding a shopper
 * slot. Shoppers with an account (subscriptions, saved cards) and the
 * attackers are in chaos-account-scenarios.ts.
 */
import { setTimeout as sleep } from "node:timers/promises"
import {
  cancelSubscription,
  cancelThenPay,
  forgeCharged,
  payPage,
  payWithSavedCard,
  savedCardOnAnothersCart,
  subscribe,
  type Subscribed,
} from "./chaos-account-scenarios"
import { setStock, stockedProduct } from "./chaos-catalog"
import { between, type Shopper, type ShopperContext, whileDown } from "./chaos-context"
import { cancelOrder, cancelWhenCaptured, placedOrder, refundWhenCaptured } from "./chaos-merchant"
import { pick } from "./seeded-random"
import { cardFields, completeCart, confirmCard, createCart, cvsFields, type PaymentSession, startSession } from "./shopper"
import { EMBEDDED_PROVIDER, HarnessError, HOSTED_PROVIDER } from "./store"

export type { Shopper, ShopperContext } from "./chaos-context"

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
  "hosted card paid, order cancelled by the merchant": 4,
  "hosted cvs, order cancelled, then paid": 2,
  "stock-out before the payment lands": 4,
  "subscription, renewed": 6,
  "subscription, cancelled by the customer": 3,
  "subscription, cancelled by the merchant": 3,
  "subscription, cancelled in the service's console": 3,
  "subscription cancelled before paying, paid anyway": 3,
  "saved card paid": 6,
  "saved card put on a guest's cart": 2,
  "hosted card, forged notification first": 3,
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
  "hosted card paid, order cancelled by the merchant": ["canceled"],
  // The code is paid after the cancel: the money waits on the cancelled order for the merchant's remittance refund.
  "hosted cvs, order cancelled, then paid": ["canceled"],
  "stock-out before the payment lands": ["none", "canceled"],
  "subscription, renewed": ["captured"],
  "subscription, cancelled by the customer": ["captured"],
  "subscription, cancelled by the merchant": ["captured"],
  "subscription, cancelled in the service's console": ["captured"],
  "subscription cancelled before paying, paid anyway": ["none", "canceled"],
  "saved card paid": ["captured"],
  "saved card put on a guest's cart": ["none"],
  "hosted card, forged notification first": ["captured"],
}

const CARDS = {
  hostedPaid: "4242424242424242",
  hostedRefused: "4000000000000051",
  embeddedPaid: "4242424242424242",
  embeddedDeclined: "4000000000000002",
  processingSucceeds: "4000000000007700",
  processingFails: "4000000000007718",
}

async function payEmbedded(ctx: ShopperContext, session: PaymentSession, card: string) {
  const secret = String(session.data.clientSecret ?? "")
  if (!secret) {
    throw new HarnessError(`cart ${session.cartId}: the embedded session holds no clientSecret`)
  }
  return confirmCard(ctx.store.sandbox, secret, card)
}

async function maybeReturn(ctx: ShopperContext, cartId: string, headers?: Record<string, string>) {
  if (ctx.random() < ctx.returnRate) {
    await whileDown(ctx, () => completeCart(ctx.store, cartId, headers)).catch(() => undefined)
  }
}

export function chooseScenario(random: () => number): Scenario {
  return pick(random, SCENARIO_WEIGHTS)
}

type Later = (work: () => Promise<string | undefined | void>, minMs: number, maxMs: number) => void

const CANCELLERS = {
  "subscription, cancelled by the customer": "customer",
  "subscription, cancelled by the merchant": "merchant",
  "subscription, cancelled in the service's console": "console",
} as const

async function subscriber(ctx: ShopperContext, scenario: Scenario, subscribed: Subscribed, later: Later) {
  if (scenario === "subscription cancelled before paying, paid anyway") {
    await cancelThenPay(ctx, subscribed)
    return
  }
  await payPage(subscribed.session, cardFields(CARDS.hostedPaid))
  await maybeReturn(ctx, subscribed.session.cartId, subscribed.headers)
  if (scenario in CANCELLERS) {
    later(() => cancelSubscription(ctx, subscribed, CANCELLERS[scenario as keyof typeof CANCELLERS]), 1_000, 10_000)
  }
}

/** The service's transaction once refunded (or undefined after `timeoutMs`). */
async function refundedAtService(ctx: ShopperContext, transactionId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const tx = await ctx.store.control<{ refundAmount?: number }>("GET", `/transactions/${transactionId}`)
    if (tx.refundAmount) {
      return true
    }
    await sleep(2_000)
  }
  return false
}

/** One shopper; once their cart exists a failure stays with them (its payments must still be accounted for), before it the run counts it. */
export async function shop(ctx: ShopperContext, index: number, scenario: Scenario): Promise<Shopper> {
  const shopper: Shopper = { index, scenario, cartId: "", problems: [], findings: [] }
  try {
    await shopAs(ctx, shopper, scenario)
  } catch (error) {
    if (!shopper.cartId) {
      throw error
    }
    shopper.problems.push((error as Error).message.slice(0, 300))
  }
  return shopper
}

async function shopAs(ctx: ShopperContext, shopper: Shopper, scenario: Scenario): Promise<void> {
  const { store, random } = ctx
  const { index } = shopper
  const email = `chaos-${index}@example.test`
  const later: Later = (work, minMs, maxMs) => {
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

  if (scenario.startsWith("subscription")) {
    const { cartId, subscribed } = await subscribe(ctx, email)
    shopper.cartId = cartId
    await subscriber(ctx, scenario, subscribed, later)
    return
  }
  if (scenario === "saved card paid") {
    await payWithSavedCard(ctx, shopper, email)
    return
  }

  // A product of the shopper's own with one unit, so that its stock-out is no other shopper's.
  const stocked = scenario === "stock-out before the payment lands" ? await whileDown(ctx, async () => stockedProduct(store, ctx.catalog, await ctx.admin(), 1)) : undefined
  const cartId = await whileDown(ctx, () => createCart(store, email, undefined, stocked?.variantId))
  shopper.cartId = cartId
  const provider = scenario.startsWith("embedded") ? EMBEDDED_PROVIDER : HOSTED_PROVIDER
  const session: PaymentSession = await whileDown(ctx, () => startSession(store, cartId, provider))

  switch (scenario) {
    case "hosted card paid":
      await payPage(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      break
    case "hosted card declined":
      await payPage(session, cardFields(CARDS.hostedRefused))
      break
    case "hosted cvs paid":
      await payPage(session, cvsFields())
      later(control(`/transactions/${session.data.transactionId}/pay`), 2_000, 30_000)
      break
    case "hosted cvs expired":
      await payPage(session, cvsFields())
      later(control(`/transactions/${session.data.transactionId}/expire`), 2_000, 30_000)
      break
    case "hosted card refunded":
      await payPage(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      later(() => refundWhenCaptured(ctx, cartId), 1_000, 10_000)
      break
    case "hosted card, two tabs": {
      // The shopper starts over in a second tab (a new session replaces the first), then pays both pages.
      const second = await whileDown(ctx, () => startSession(store, cartId, HOSTED_PROVIDER, session.collectionId))
      await payPage(second, cardFields(CARDS.hostedPaid))
      await payPage(session, cardFields(CARDS.hostedPaid)).catch(() => undefined)
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
    case "hosted card paid, order cancelled by the merchant":
      await payPage(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      later(() => cancelWhenCaptured(ctx, cartId), 1_000, 10_000)
      break
    case "hosted cvs, order cancelled, then paid":
      // The merchant cancels the order awaiting the code's payment; the shopper pays at the counter anyway.
      await payPage(session, cvsFields())
      later(async () => {
        const orderId = await placedOrder(ctx, cartId)
        if (!orderId) {
          return "no order awaiting the cvs payment to cancel"
        }
        return (await cancelOrder(ctx, orderId)) ?? control(`/transactions/${session.data.transactionId}/pay`)()
      }, 2_000, 20_000)
      break
    case "stock-out before the payment lands":
      // The last unit goes (the merchant's count says 0) while the shopper is on the page.
      await whileDown(ctx, async () => setStock(store, ctx.catalog, await ctx.admin(), stocked!, 0))
      await payPage(session, cardFields(CARDS.hostedPaid))
      await maybeReturn(ctx, cartId)
      // Once the money is back, the merchant restocks and the shopper completes again: money given back is no order (I2).
      later(async () => {
        if (!(await refundedAtService(ctx, String(session.data.transactionId), 200_000))) {
          return undefined
        }
        await whileDown(ctx, async () => setStock(store, ctx.catalog, await ctx.admin(), stocked!, 1))
        await whileDown(ctx, () => completeCart(store, cartId)).catch(() => undefined)
      }, 1_000, 5_000)
      break
    case "saved card put on a guest's cart":
      await savedCardOnAnothersCart(ctx, shopper, cartId, session.collectionId, `chaos-${index}-other@example.test`)
      break
    case "hosted card, forged notification first": {
      const answered = await forgeCharged(ctx, session)
      shopper.forgedTransactionId = String(session.data.transactionId)
      if (answered >= 500) {
        shopper.problems.push(`the forged notification was answered ${answered}`)
      }
      await sleep(between(random, 500, 3_000))
      // No return to the storefront: the order has to come from the real delivery.
      await payPage(session, cardFields(CARDS.hostedPaid))
      break
    }
    case "subscription, renewed":
    case "subscription, cancelled by the customer":
    case "subscription, cancelled by the merchant":
    case "subscription, cancelled in the service's console":
    case "subscription cancelled before paying, paid anyway":
      throw new HarnessError(`${scenario} is not a one-time cart`)
  }
}

// What the merchant does in the chaos run, through the admin API: refund a paid order, cancel it.
import { poll, type ShopperContext, whileDown } from "./chaos-context"

/** The cart's live order and its captured payment, once both exist. */
async function capturedOrder(ctx: ShopperContext, cartId: string) {
  const [row] = await ctx.store.sql<{ order_id: string; payment_id: string }>(
    `select oc.order_id, p.id as payment_id from payment p join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id
      join order_cart oc on oc.cart_id = cpc.cart_id and oc.deleted_at is null
     where cpc.cart_id = $1 and p.captured_at is not null and p.canceled_at is null and p.deleted_at is null`,
    [cartId]
  )
  return row
}

/** Waits until the cart's order holds a captured payment (or gives up after `timeoutMs`), then refunds it through the admin API. */
export async function refundWhenCaptured(ctx: ShopperContext, cartId: string, timeoutMs = 240_000): Promise<string | undefined> {
  const captured = await poll(() => capturedOrder(ctx, cartId), timeoutMs)
  if (!captured) {
    return `no captured order to refund after ${timeoutMs / 1000} s`
  }
  const headers = await whileDown(ctx, () => ctx.admin())
  const { status, data } = await whileDown(ctx, () => ctx.store.api("POST", `/admin/payments/${captured.payment_id}/refund`, {}, { headers, allowError: true }))
  if (status < 300) {
    return undefined
  }
  // A refund sent just before the crash may have been made although its answer never came; the retry is then refused.
  const [done] = await ctx.store.sql(
    `select 1 from payment p where p.id = $1 and (select coalesce(sum(r.amount), 0) from refund r where r.payment_id = p.id and r.deleted_at is null) >= p.amount`,
    [captured.payment_id]
  )
  return done ? undefined : `refund of ${captured.payment_id} answered ${status}: ${JSON.stringify(data).slice(0, 200)}`
}

/** Cancels an order through the admin (`POST /admin/orders/{id}/cancel`): core refunds what it captured. */
export async function cancelOrder(ctx: ShopperContext, orderId: string): Promise<string | undefined> {
  const headers = await whileDown(ctx, () => ctx.admin())
  const { status, data } = await whileDown(ctx, () => ctx.store.api("POST", `/admin/orders/${orderId}/cancel`, {}, { headers, allowError: true }))
  if (status < 300) {
    return undefined
  }
  const [done] = await ctx.store.sql(`select 1 from "order" where id = $1 and status = 'canceled'`, [orderId])
  return done ? undefined : `cancelling order ${orderId} answered ${status}: ${JSON.stringify(data).slice(0, 200)}`
}

/** Waits for the cart's captured order, then the merchant cancels it. */
export async function cancelWhenCaptured(ctx: ShopperContext, cartId: string, timeoutMs = 240_000): Promise<string | undefined> {
  const captured = await poll(() => capturedOrder(ctx, cartId), timeoutMs)
  return captured ? cancelOrder(ctx, captured.order_id) : `no captured order to cancel after ${timeoutMs / 1000} s`
}

/** The cart's live order, paid or awaiting payment (a cvs code's), once placed. */
export async function placedOrder(ctx: ShopperContext, cartId: string, timeoutMs = 240_000): Promise<string | undefined> {
  return poll(async () => {
    const [row] = await ctx.store.sql<{ id: string }>(
      `select o.id from order_cart oc join "order" o on o.id = oc.order_id where oc.cart_id = $1 and oc.deleted_at is null and o.deleted_at is null and o.status <> 'canceled'`,
      [cartId]
    )
    return row?.id
  }, timeoutMs)
}

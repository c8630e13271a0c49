import type { MedusaContainer } from "@medusajs/framework/types"
import type { BigNumberInput, IOrderModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import { createOrderPaymentCollectionWorkflow, createOrderWorkflow, createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import type { Transaction } from "../../lib/hosted"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../modules/tw-subscription"
import { providerId } from "../../providers/core/provider-keys"
import { RENEWAL_CONTEXT_KEY, renewalLines, sealRenewalTerms } from "../../providers/hosted-checkout/public"
import { hostedApi } from "./hosted-api"
import type { ObservedPeriod } from "./subscription-state"

/** The subscription row as placing a renewal order needs it. */
export interface RenewalSubscription {
  id: string
  kind: "monthly" | "scheduled"
  provider_key: string
  payment_session_id: string
  customer_id: string
}

interface Address {
  [key: string]: unknown
}

interface FirstOrder {
  id: string
  region_id: string
  customer_id: string | null
  sales_channel_id: string | null
  email: string | null
  currency_code: string
  shipping_address: Address | null
  billing_address: Address | null
  items: Array<{
    title: string
    subtitle?: string | null
    variant_id: string | null
    product_id?: string | null
    quantity: number
    unit_price: number
    is_tax_inclusive: boolean
    requires_shipping?: boolean
    thumbnail?: string | null
  }>
  shipping_methods: Array<{ name: string; amount: number; shipping_option_id: string | null; is_tax_inclusive: boolean; data?: Record<string, unknown> | null }>
}

/** Query answers numbers as numbers or as BigNumber values. */
const amount = (value: unknown) => MathBN.convert(value as BigNumberInput).toNumber()

const ADDRESS_FIELDS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "country_code", "province", "postal_code", "phone"]

/** An address of the first order, copied without its ids. */
function copyAddress(address: Address | null | undefined) {
  if (!address) {
    return undefined
  }
  return Object.fromEntries(ADDRESS_FIELDS.filter((key) => address[key] !== undefined && address[key] !== null).map((key) => [key, address[key]]))
}

export async function loadFirstOrder(container: MedusaContainer, orderId: string): Promise<FirstOrder> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "region_id",
      "customer_id",
      "sales_channel_id",
      "email",
      "currency_code",
      "shipping_address.*",
      "billing_address.*",
      // Whole items: an item's quantity lives in the order's item detail and is only resolved this way.
      "items.*",
      "shipping_methods.*",
    ],
    filters: { id: orderId },
  })
  if (!data[0]) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `The first order ${orderId} of the subscription no longer exists.`)
  }
  return data[0] as FirstOrder
}

/**
 * Step 1 of a renewal: the order itself, a copy of the first order (same
 * variants, quantities and unit prices, customer, addresses, shipping
 * methods) tagged with the subscription and period. Its id is written on the
 * period row at once, so a retry resumes with the payment instead of placing
 * a second order.
 */
export async function createRenewalOrder(container: MedusaContainer, sub: RenewalSubscription, first: FirstOrder, period: ObservedPeriod): Promise<string> {
  const { result: order } = await createOrderWorkflow(container).run({
    input: {
      region_id: first.region_id,
      customer_id: first.customer_id ?? sub.customer_id,
      sales_channel_id: first.sales_channel_id ?? undefined,
      email: first.email ?? undefined,
      currency_code: first.currency_code,
      status: "pending",
      shipping_address: copyAddress(first.shipping_address),
      billing_address: copyAddress(first.billing_address),
      items: first.items.map((item) => ({
        title: item.title,
        subtitle: item.subtitle ?? undefined,
        variant_id: item.variant_id ?? undefined,
        product_id: item.product_id ?? undefined,
        quantity: amount(item.quantity),
        unit_price: amount(item.unit_price),
        is_tax_inclusive: item.is_tax_inclusive,
        requires_shipping: item.requires_shipping,
        thumbnail: item.thumbnail ?? undefined,
      })),
      shipping_methods: first.shipping_methods.map((method) => ({
        name: method.name,
        amount: amount(method.amount),
        shipping_option_id: method.shipping_option_id ?? undefined,
        is_tax_inclusive: method.is_tax_inclusive,
        data: method.data ?? undefined,
      })),
      metadata: { tw_subscription_id: sub.id, tw_subscription_period: period.period, tw_transaction_hid: period.transactionHid },
    },
  })
  return order.id
}

/**
 * Step 2: the order's payment is the period's transaction, through the
 * hosted provider (sealed renewal terms in the session context, with `tx`,
 * this run's read of the transaction, so nothing is read again), recorded as
 * captured with an order transaction, as a checkout's would be. Then
 * `order.placed`, so fulfilment and notifications work as for any order.
 */
export async function payRenewalOrder(container: MedusaContainer, sub: RenewalSubscription, orderId: string, period: ObservedPeriod, tx: Transaction): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const payments = container.resolve(Modules.PAYMENT)
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "currency_code", "total", "payment_collections.id", "payment_collections.status", "payment_collections.payments.id", "payment_collections.payments.captured_at"],
    filters: { id: orderId },
  })
  const order = orders[0] as
    | { id: string; currency_code: string; total: unknown; payment_collections?: Array<{ id: string; status: string; payments?: Array<{ id: string; captured_at: unknown } | null> } | null> }
    | undefined
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Renewal order ${orderId} no longer exists.`)
  }
  const collections = (order.payment_collections ?? []).filter((c) => !!c)
  if (collections.some((c) => (c.payments ?? []).some((p) => p?.captured_at))) {
    // Captured by a run that stopped before the rest: it is finished, not skipped.
    await recordRenewalPayment(container, orderId)
    return
  }
  if (amount(order.total) !== period.amount) {
    // The service charged what was agreed at checkout; the order says what the store would charge today.
    logger.warn(`medusa-payment-tw: renewal order ${orderId} totals ${String(order.total)} TWD; the service charged ${period.amount} TWD for period ${period.period} of ${sub.id}`)
  }
  const collectionId =
    collections[0]?.id ??
    (await createOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId, amount: period.amount } })).result[0].id
  const api = hostedApi(container, sub.provider_key)
  const renewal = sealRenewalTerms(api.attestor, {
    subscription_id: sub.id,
    kind: sub.kind,
    transaction_id: period.transactionId,
    period: period.period,
    amount: period.amount,
    custom_id: sub.payment_session_id,
    // This run's read of the checkout's transactions, sealed: the provider does not read the transaction again.
    transaction_hid: tx.transactionHid,
    status: tx.status,
    paid_at: tx.paidAt ?? null,
    payment_method: tx.paymentMethod ?? null,
    payment_info: typeof tx.paymentInfo === "string" ? tx.paymentInfo : null,
  })
  const lines = await invoicedLinesOfPeriod(container, sub, tx)
  const { result: session } = await createPaymentSessionsWorkflow(container).run({
    input: {
      payment_collection_id: collectionId,
      provider_id: providerId(sub.provider_key),
      data: lines ? { lines } : {},
      context: { [RENEWAL_CONTEXT_KEY]: renewal },
    },
  })
  const payment = await payments.authorizePaymentSession(session.id, {})
  if (!payment) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The payment of renewal order ${orderId} was not authorized.`)
  }
  await recordRenewalPayment(container, orderId)
}

/**
 * The captures of the renewal order's payment as order transactions (those
 * not recorded yet), then `order.placed`. Safe to run again after a crash
 * anywhere in it: a transaction is added once per capture, and the event is
 * sent at least once.
 */
async function recordRenewalPayment(container: MedusaContainer, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "currency_code", "transactions.reference_id", "payment_collections.payments.captures.id", "payment_collections.payments.captures.amount"],
    filters: { id: orderId },
  })
  const order = data[0] as
    | {
        currency_code: string
        transactions?: Array<{ reference_id: string | null } | null>
        payment_collections?: Array<{ payments?: Array<{ captures?: Array<{ id: string; amount: BigNumberInput } | null> } | null> } | null>
      }
    | undefined
  if (!order) {
    return
  }
  const recorded = new Set((order.transactions ?? []).map((t) => t?.reference_id))
  const captures = (order.payment_collections ?? []).flatMap((c) => c?.payments ?? []).flatMap((p) => p?.captures ?? [])
  const missing = captures.filter((capture): capture is { id: string; amount: BigNumberInput } => !!capture && !recorded.has(capture.id))
  if (missing.length) {
    await container.resolve(Modules.ORDER).addOrderTransactions(
      missing.map((capture) => ({ order_id: orderId, amount: capture.amount, currency_code: order.currency_code, reference: "capture", reference_id: capture.id }))
    )
  }
  await container.resolve(Modules.EVENT_BUS).emit({ name: "order.placed", data: { id: orderId } })
}

/** The renewal order already made for a period's transaction (its metadata names it), linked yet or not. */
export async function renewalOrderOf(container: MedusaContainer, subscriptionId: string, transactionHid: string): Promise<string | undefined> {
  const orders = await container.resolve(Modules.ORDER).listOrders(
    { metadata: { tw_subscription_id: subscriptionId, tw_transaction_hid: transactionHid } } as Parameters<IOrderModuleService["listOrders"]>[0],
    { select: ["id"], take: 1, order: { created_at: "ASC" } }
  )
  return orders[0]?.id
}

/**
 * The lines a period was invoiced on, as its payment's `lines`: the service
 * invoices every period on the subscription checkout's `productDetails`, which
 * the checkout's session keeps as `invoiceLines` (the first order's lines).
 * A checkout that kept none (a saved card's later first charge) falls back on
 * the period's own read, which names its `productDetails` too. A renewal's
 * refund then shares these lines out as its allowances.
 */
async function invoicedLinesOfPeriod(container: MedusaContainer, sub: RenewalSubscription, tx: Transaction) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "data"], filters: { id: sub.payment_session_id } })
  const checkout = (data[0] as { data?: Record<string, unknown> | null } | undefined)?.data
  return renewalLines(checkout?.invoiceLines) ?? renewalLines(tx.productDetails)
}

/** Links the order to the subscription (module link), once. */
export async function linkOrder(container: MedusaContainer, subscriptionId: string, orderId: string): Promise<void> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "tw_subscription", fields: ["id", "orders.id"], filters: { id: subscriptionId } })
  const linked = ((data[0] as { orders?: Array<{ id: string } | null> } | undefined)?.orders ?? []).some((o) => o?.id === orderId)
  if (!linked) {
    await link.create({ [TW_SUBSCRIPTION_MODULE]: { tw_subscription_id: subscriptionId }, [Modules.ORDER]: { order_id: orderId } })
  }
}

export const subscriptionModule = (container: MedusaContainer) => container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)

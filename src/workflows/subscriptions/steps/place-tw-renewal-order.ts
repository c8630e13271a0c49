import type { BigNumberInput, IOrderModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { createOrderWorkflow } from "@medusajs/medusa/core-flows"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { ObservedPeriod } from "../decisions/subscription-state"
import { capturedOn } from "./add-tw-renewal-payment-collection"

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
export const amount = (value: unknown) => MathBN.convert(value as BigNumberInput).toNumber()

const ADDRESS_FIELDS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "country_code", "province", "postal_code", "phone"]

/** An address of the first order, copied without its ids. */
function copyAddress(address: Address | null | undefined) {
  if (!address) {
    return undefined
  }
  return Object.fromEntries(ADDRESS_FIELDS.filter((key) => address[key] !== undefined && address[key] !== null).map((key) => [key, address[key]]))
}

async function loadFirstOrder(container: MedusaContainer, orderId: string): Promise<FirstOrder> {
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

/** The renewal order already made for a period's transaction (its metadata names it), linked yet or not. */
export async function renewalOrderOf(container: MedusaContainer, subscriptionId: string, transactionHid: string): Promise<string | undefined> {
  const orders = await container.resolve(Modules.ORDER).listOrders(
    { metadata: { tw_subscription_id: subscriptionId, tw_transaction_hid: transactionHid } } as Parameters<IOrderModuleService["listOrders"]>[0],
    { select: ["id"], take: 1, order: { created_at: "ASC" } }
  )
  return orders[0]?.id
}

export interface CreateRenewalOrderInput {
  subscriptionId: string
  customerId: string
  firstOrderId: string
  periodId: string
  period: ObservedPeriod
}

/**
 * The period's renewal order: the one the period names, or the one already
 * made for its transaction (a run that stopped before naming it), or else a
 * copy of the first order (same variants, quantities and unit prices,
 * customer, addresses, shipping methods) tagged with the subscription,
 * period and transaction. Compensation deletes the order only when this
 * step made it and nothing was captured on it: a captured payment is the
 * service's money, and its order stays for the next run to finish.
 */
export const createTwRenewalOrderStep = createStep(
  "place-tw-renewal-order",
  async ({ subscriptionId, customerId, firstOrderId, periodId, period }: CreateRenewalOrderInput, { container }) => {
    const row = await subscriptionModule(container).retrieveTwSubscriptionPeriod(periodId, { select: ["id", "order_id"] })
    const existing = row.order_id ?? (await renewalOrderOf(container, subscriptionId, period.transactionHid))
    if (existing) {
      return new StepResponse<{ orderId: string }, string | null>({ orderId: existing }, null)
    }
    const first = await loadFirstOrder(container, firstOrderId)
    // .run(), not runAsStep: made only when the period has no order yet, and its undo keeps an order whose payment was captured, which core's compensation would delete
    const { result: order } = await createOrderWorkflow(container).run({
      input: {
        region_id: first.region_id,
        customer_id: first.customer_id ?? customerId,
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
        metadata: { tw_subscription_id: subscriptionId, tw_subscription_period: period.period, tw_transaction_hid: period.transactionHid },
      },
    })
    return new StepResponse<{ orderId: string }, string | null>({ orderId: order.id }, order.id)
  },
  async (created, { container }) => {
    if (created && !(await capturedOn(container, created))) {
      await container.resolve(Modules.ORDER).deleteOrders([created])
    }
  }
)

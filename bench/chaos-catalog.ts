/**
 * What the chaos run's subscription and stock-out shoppers need beyond the
 * burst's one variant: the seed's monthly plan (the tea box), and, per
 * stock-out shopper, a product of its own with one unit in stock, so that
 * selling it out touches no other shopper's cart.
 */
import { randomBytes } from "node:crypto"
import { type BenchStore, HarnessError } from "./store"

export interface ChaosCatalog {
  /** The seed's monthly plan and the variant it is sold on (BOX-TEA-MONTH). */
  planId: string
  planVariantId: string
  shippingProfileId: string
  salesChannelId: string
  locationId: string
}

export async function readChaosCatalog(store: BenchStore): Promise<ChaosCatalog> {
  const [plan] = await store.sql<{ id: string; variant_id: string }>(
    `select p.id, p.variant_id from tw_subscription_plan p join product_variant v on v.id = p.variant_id
      where v.sku = 'BOX-TEA-MONTH' and p.kind = 'monthly' and p.deleted_at is null limit 1`
  )
  const [product] = await store.sql<{ shipping_profile_id: string; sales_channel_id: string }>(
    `select psp.shipping_profile_id, psc.sales_channel_id from product_variant v
       join product_shipping_profile psp on psp.product_id = v.product_id and psp.deleted_at is null
       join product_sales_channel psc on psc.product_id = v.product_id and psc.deleted_at is null
      where v.id = $1`,
    [store.catalog.variantId]
  )
  const [location] = await store.sql<{ id: string }>(`select id from stock_location where deleted_at is null order by created_at limit 1`)
  if (!plan || !product || !location) {
    throw new HarnessError("the seed's monthly plan, the oolong's shipping profile and sales channel, or its stock location is missing")
  }
  return { planId: plan.id, planVariantId: plan.variant_id, shippingProfileId: product.shipping_profile_id, salesChannelId: product.sales_channel_id, locationId: location.id }
}

export interface StockedProduct {
  variantId: string
  inventoryItemId: string
}

/** A product of its own with `stock` units at the seed's warehouse, made as a merchant would in the admin. */
export async function stockedProduct(store: BenchStore, catalog: ChaosCatalog, admin: Record<string, string>, stock: number): Promise<StockedProduct> {
  const sku = `CHAOS-${randomBytes(4).toString("hex")}`
  const { data } = await store.api<{ product: { variants: Array<{ id: string }> } }>(
    "POST",
    "/admin/products",
    {
      title: `Last box ${sku}`,
      status: "published",
      shipping_profile_id: catalog.shippingProfileId,
      sales_channels: [{ id: catalog.salesChannelId }],
      options: [{ title: "Size", values: ["One size"] }],
      variants: [{ title: "One size", sku, options: { Size: "One size" }, manage_inventory: true, prices: [{ currency_code: "twd", amount: 680 }] }],
    },
    { headers: admin }
  )
  const variantId = data.product.variants[0].id
  const [item] = await store.sql<{ inventory_item_id: string }>(
    `select inventory_item_id from product_variant_inventory_item where variant_id = $1 and deleted_at is null`,
    [variantId]
  )
  if (!item) {
    throw new HarnessError(`product variant ${variantId} got no inventory item`)
  }
  await store.api("POST", `/admin/inventory-items/${item.inventory_item_id}/location-levels`, { location_id: catalog.locationId, stocked_quantity: stock }, { headers: admin })
  return { variantId, inventoryItemId: item.inventory_item_id }
}

/** The merchant counts the shelf again: the product's stock at the warehouse becomes `stock`. */
export async function setStock(store: BenchStore, catalog: ChaosCatalog, admin: Record<string, string>, product: StockedProduct, stock: number): Promise<void> {
  await store.api("POST", `/admin/inventory-items/${product.inventoryItemId}/location-levels/${catalog.locationId}`, { stocked_quantity: stock }, { headers: admin })
}

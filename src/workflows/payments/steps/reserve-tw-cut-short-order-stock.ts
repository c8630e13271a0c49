import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput, IInventoryService } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cannotFulfil } from "../decisions/cannot-fulfil"

interface OrderItem {
  id: string
  quantity: unknown
  raw_quantity?: unknown
  variant?: {
    manage_inventory?: boolean
    allow_backorder?: boolean
    inventory_items?: Array<{ inventory_item_id: string; required_quantity: unknown } | null>
  } | null
}

interface Reserved {
  reservations: string[]
  inventoryItemIds: string[]
}

/** `short`: why the stock cannot be reserved (nothing was). */
export interface OrderStock {
  short?: string
}

const nothingReserved = (stock: OrderStock = {}) => new StepResponse<OrderStock, Reserved>(stock, { reservations: [], inventoryItemIds: [] })

/**
 * An order a completion cut short (a crash) may have been placed without the
 * reservations core's completion makes right after placing it. Before its
 * payment is recorded, every item of managed inventory gets the reservation it
 * lacks, as core's `reserveInventoryStep` makes them: at a stock location of
 * the order's sales channel, under the inventory items' locks. Answers
 * `short` (and reserves nothing) when the stock is gone: the order then cannot
 * be fulfilled and its money goes back. Undone when a later step fails.
 */
export const reserveOrderStockStep = createStep(
  "reserve-tw-cut-short-order-stock",
  async ({ orderId }: { orderId: string }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const inventory = container.resolve(Modules.INVENTORY)
    const {
      data: [order],
    } = await query.graph({
      entity: "order",
      fields: [
        "id",
        "sales_channel_id",
        // The whole item: its quantity comes from the order's item detail, which `items.quantity` alone does not
        // load (core's inventory fields for orders ask for `items.*` too).
        "items.*",
        "items.variant.manage_inventory",
        "items.variant.allow_backorder",
        "items.variant.inventory_items.inventory_item_id",
        "items.variant.inventory_items.required_quantity",
      ],
      filters: { id: orderId },
    })
    const items = ((order?.items ?? []) as Array<OrderItem | null>).filter((item): item is OrderItem => !!item?.variant?.manage_inventory)
    if (!items.length) {
      return nothingReserved()
    }
    const existing = await inventory.listReservationItems({ line_item_id: items.map((item) => item.id) }, { select: ["line_item_id", "inventory_item_id"] })
    const held = new Set(existing.map((r) => `${r.line_item_id}:${r.inventory_item_id}`))
    const wanted = items.flatMap((item) =>
      (item.variant!.inventory_items ?? [])
        .filter((link): link is NonNullable<typeof link> => !!link && !held.has(`${item.id}:${link.inventory_item_id}`))
        .map((link) => ({
          line_item_id: item.id,
          inventory_item_id: link.inventory_item_id,
          quantity: MathBN.mult(link.required_quantity as number, (item.raw_quantity ?? item.quantity) as number),
          allow_backorder: !!item.variant!.allow_backorder,
        }))
    )
    if (!wanted.length) {
      return nothingReserved()
    }

    const { data: channels } = await query.graph({ entity: "sales_channel", fields: ["stock_locations.id"], filters: { id: order.sales_channel_id as string } })
    const locationIds = ((channels[0]?.stock_locations ?? []) as Array<{ id: string } | null>).flatMap((l) => (l ? [l.id] : []))
    const inventoryItemIds = [...new Set(wanted.map((w) => w.inventory_item_id))]
    try {
      const reservations = await container.resolve(Modules.LOCKING).execute(inventoryItemIds, async () => {
        const withLocations = await Promise.all(
          wanted.map(async (w) => ({ ...w, location_id: await locationFor(inventory, w.inventory_item_id, w.quantity, locationIds) }))
        )
        return inventory.createReservationItems(withLocations)
      })
      return new StepResponse<OrderStock, Reserved>({}, { reservations: reservations.map((r) => r.id), inventoryItemIds })
    } catch (error) {
      if (!cannotFulfil(error as { message?: string; code?: string; type?: string })) {
        throw error
      }
      return nothingReserved({ short: (error as Error).message })
    }
  },
  async (reserved, { container }) => {
    if (!reserved?.reservations.length) {
      return
    }
    await container.resolve(Modules.LOCKING).execute(reserved.inventoryItemIds, () => container.resolve(Modules.INVENTORY).deleteReservationItems(reserved.reservations))
  }
)

/** The channel's first location holding enough, else its first location stocking the item at all (the module then refuses, unless backordered). */
async function locationFor(inventory: IInventoryService, inventoryItemId: string, quantity: BigNumberInput, locationIds: string[]): Promise<string> {
  for (const locationId of locationIds) {
    if (MathBN.gte(await inventory.retrieveAvailableQuantity(inventoryItemId, [locationId]), quantity)) {
      return locationId
    }
  }
  const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId, location_id: locationIds })
  return levels[0]?.location_id ?? locationIds[0]
}

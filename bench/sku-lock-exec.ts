// Run by bench/sku-lock.ts through `medusa exec`, in the store's own context: the inventory reservation of one
// SKU, the part of core's cart completion that holds that item's lock (`reserveInventoryStep`), timed alone.
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import pLimit from "p-limit"
import { performance } from "node:perf_hooks"

const SKU = "TEA-OOLONG-150"
const WARMUP = 20

export default async function skuLock({ container, args }: ExecArgs) {
  const [n, concurrency] = args.map(Number)
  const inventory = container.resolve(Modules.INVENTORY)
  const locking = container.resolve(Modules.LOCKING)
  const [item] = await inventory.listInventoryItems({ sku: SKU }, { take: 1 })
  const [level] = await inventory.listInventoryLevels({ inventory_item_id: item.id }, { take: 1 })
  const made: string[] = []
  let next = 0
  // As core's step does it: the reservation created while the item's lock is held.
  const reserve = async () => {
    const started = performance.now()
    let held = 0
    await locking.execute([item.id], async () => {
      const from = performance.now()
      const [reservation] = await inventory.createReservationItems([
        { inventory_item_id: item.id, location_id: level.location_id, quantity: 1, line_item_id: `bench-sku-lock-${next++}`, allow_backorder: false },
      ])
      made.push(reservation.id)
      held = performance.now() - from
    })
    return { held, total: performance.now() - started }
  }
  try {
    for (let i = 0; i < WARMUP; i++) {
      await reserve()
    }
    const serial = []
    for (let i = 0; i < n; i++) {
      serial.push(await reserve())
    }
    const limit = pLimit(concurrency)
    const from = performance.now()
    const contended = await Promise.all(Array.from({ length: n }, () => limit(reserve)))
    const wallMs = performance.now() - from
    console.log(`SKU-LOCK ${JSON.stringify({ serial, contended, wallMs })}`)
  } finally {
    await inventory.deleteReservationItems(made)
  }
}

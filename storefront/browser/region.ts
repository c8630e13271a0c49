import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./medusa"

let region: Promise<HttpTypes.StoreRegion> | undefined

/** The store's region for Taiwan (the demo sells to Taiwan only), looked up once per page. */
export function taiwanRegion(): Promise<HttpTypes.StoreRegion> {
  region ??= sdk.store.region.list({ fields: "id,name,currency_code,*countries" }).then(({ regions }) => {
    const found = regions.find((r) => r.countries?.some((c) => c.iso_2 === "tw")) ?? regions[0]
    if (!found) {
      throw new Error("The store has no region to sell in.")
    }
    return found
  })
  return region
}

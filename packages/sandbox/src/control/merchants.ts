import { type MerchantCreate, MerchantError, merchantCreateSchema, type MerchantRegistry, merchantSettingsSchema } from "../merchants"
import { ControlError, type ControlRouter, parseBody, reply } from "./routes"

/** Merchants: create, read, change settings (a new token replaces the old one at once). */
export function addMerchantRoutes(router: ControlRouter, merchants: MerchantRegistry): void {
  const guard = <T>(work: () => T): T => {
    try {
      return work()
    } catch (err) {
      if (err instanceof MerchantError) {
        throw new ControlError(err.status, err.message)
      }
      throw err
    }
  }
  router
    .add("GET", "/merchants", () => reply({ merchants: merchants.list() }))
    .add("POST", "/merchants", (req) => {
      const input: MerchantCreate = parseBody(merchantCreateSchema, req.body)
      return reply(guard(() => merchants.create(input)), 201)
    })
    .add("GET", "/merchants/{merchantId}", (req) => {
      const merchant = merchants.get(req.params.merchantId)
      if (!merchant) {
        throw new ControlError(404, `no merchant ${req.params.merchantId}`)
      }
      return reply(merchant)
    })
    .add("PATCH", "/merchants/{merchantId}", (req) => {
      const patch = parseBody(merchantSettingsSchema, req.body)
      return reply(guard(() => merchants.update(req.params.merchantId, patch)))
    })
}

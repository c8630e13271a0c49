import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import seedDemo from "../../scripts/demo/seed"
import { completeCart, control, HOOK_PATH, orderOfCart, payPage, PROVIDER_ID, startPayment, useSandbox, waitFor, type Store } from "../helpers/hosted-store"

jest.setTimeout(180_000)
const env = useSandbox()

/**
 * A stocked product (the demo seed's inventory) bought with a convenience-store
 * code: the order reserves stock while payment is awaited, and the expiry of
 * the code cancels the order and gives the stock back.
 */
medusaIntegrationTestRunner({
  inApp: true,
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      await control(env.sandbox, "POST", "/reset")
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${api.defaults.baseURL}${HOOK_PATH}` })
      await seedDemo({ container: getContainer(), args: [] } as unknown as ExecArgs)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: keys } = await query.graph({ entity: "api_key", fields: ["token"], filters: { type: "publishable" } })
      store = { regionId: "", salesChannelId: "", publishableKey: keys[0].token, headers: { "x-publishable-api-key": keys[0].token } }
    })

    const reservedQuantity = async (inventoryItemId: string) => {
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const reservations = await inventory.listReservationItems({ inventory_item_id: inventoryItemId })
      return reservations.reduce((sum, r) => sum + Number(r.quantity), 0)
    }

    it("an expired cvs code cancels the awaiting order and releases its reservation", async () => {
      const { data: regions } = await api.get("/store/regions", { headers: store.headers })
      const region = regions.regions.find((r: { name: string }) => r.name === "Taiwan")
      const { data: products } = await api.get(`/store/products?region_id=${region.id}&fields=*variants,+variants.inventory_items.inventory_item_id`, { headers: store.headers })
      const variant = products.products.find((p: { handle: string }) => p.handle === "oolong-tea").variants[0]
      const inventoryItemId: string = variant.inventory_items[0].inventory_item_id

      const { data: created } = await api.post(
        "/store/carts",
        {
          region_id: region.id,
          email: "shopper@example.test",
          items: [{ variant_id: variant.id, quantity: 2 }],
          shipping_address: { first_name: "Mei", last_name: "Lin", address_1: "No. 7 Xinyi Rd", city: "Taipei", country_code: "tw", postal_code: "110", phone: "0912345678" },
        },
        { headers: store.headers }
      )
      const cartId: string = created.cart.id
      const { data: options } = await api.get(`/store/shipping-options?cart_id=${cartId}`, { headers: store.headers })
      await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: options.shipping_options[0].id }, { headers: store.headers })

      const { session } = await startPayment(api, store, cartId, { methods: ["cvs"] }, PROVIDER_ID)
      await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
      expect((await completeCart(api, store, cartId)).data.type).toBe("order")
      expect(await reservedQuantity(inventoryItemId)).toBe(2)

      await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/expire`)
      await waitFor(async () => (await orderOfCart(getContainer(), cartId))?.status === "canceled", "the order cancelled after expiry")
      expect(await reservedQuantity(inventoryItemId)).toBe(0)
    })
  },
})

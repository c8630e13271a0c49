// The seed the merchant-install check copies into its stock store and runs with `npx medusa exec`
// there: it imports only Medusa packages, never this repository. What a merchant sets up by hand,
// following the README (TWD added to the stock store's currencies, then a TWD region with the plugin's
// providers; a sales channel, a publishable key, an admin user), a product priced NT$99.50 by mistake
// (SEED_CENTS_PRICE), for the warning at boot, a product at a whole price (SEED_WHOLE_PRICE) that a
// customer buys with a saved card and subscribes to, plus one custom-priced cart per payment to make,
// written as JSON to SEED_OUT for the check.
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createCartWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createUserAccountWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"

function env(name: string): string {
  const value = process.env[name]
  if (!value) {
    throw new Error(`seed: ${name} is not set`)
  }
  return value
}

export default async function seed({ container }: ExecArgs) {
  const providerIds = env("SEED_PROVIDER_IDS").split(",")
  const cartNames = env("SEED_CARTS").split(",")
  const amount = Number(env("SEED_CART_AMOUNT"))

  // The README's first admin step: the stock store has only the currencies it names; TWD is added, as
  // Settings -> Store -> Currencies -> Add does (the default currency stays).
  const stock = env("SEED_STOCK_CURRENCIES").split(",")
  const addCurrency = env("SEED_ADD_CURRENCY")
  const [store] = await container.resolve(Modules.STORE).listStores({}, { relations: ["supported_currencies"] })
  const currencies = (store.supported_currencies ?? []).map((c) => ({ currency_code: c.currency_code, is_default: c.is_default }))
  const codes = currencies.map((c) => c.currency_code).sort()
  if (codes.join(",") !== [...stock].sort().join(",")) {
    throw new Error(`seed: the stock store's currencies are ${codes.join(", ") || "none"}, but README.md says it has only ${stock.join(", ")}`)
  }
  await updateStoresWorkflow(container).run({
    input: { selector: { id: store.id }, update: { supported_currencies: [...currencies, { currency_code: addCurrency, is_default: false }] } },
  })

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Taiwan", currency_code: "twd", countries: ["tw"], payment_providers: providerIds }] },
  })
  const { result: channels } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web shop" }] } })
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Web shop", type: "publishable", created_by: "seed" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } })

  // The admin user, as `medusa user` would create it, so the check can read orders through the admin API.
  const email = env("SEED_ADMIN_EMAIL")
  const registered = await container.resolve(Modules.AUTH).register("emailpass", { body: { email, password: env("SEED_ADMIN_PASSWORD") } })
  if (!registered.success || !registered.authIdentity) {
    throw new Error(`seed: registering the admin user failed: ${registered.error}`)
  }
  await createUserAccountWorkflow(container).run({ input: { authIdentityId: registered.authIdentity.id, userData: { email } } })

  // A price with cents, as the admin accepts it: the plugin warns about it at boot.
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Oolong tea sample",
          status: "published",
          options: [{ title: "Size", values: ["Sample"] }],
          variants: [{ title: "Sample", options: { Size: "Sample" }, manage_inventory: false, prices: [{ amount: Number(env("SEED_CENTS_PRICE")), currency_code: addCurrency }] }],
          sales_channels: [{ id: channels[0].id }],
        },
        {
          title: "Tea box",
          status: "published",
          options: [{ title: "Size", values: ["Box"] }],
          variants: [{ title: "Box", options: { Size: "Box" }, manage_inventory: false, prices: [{ amount: Number(env("SEED_WHOLE_PRICE")), currency_code: addCurrency }] }],
          sales_channels: [{ id: channels[0].id }],
        },
      ],
    },
  })

  const carts: Record<string, string> = {}
  for (const name of cartNames) {
    const { result: cart } = await createCartWorkflow(container).run({
      input: {
        region_id: regions[0].id,
        sales_channel_id: channels[0].id,
        currency_code: "twd",
        email: `${name}@shopper.example`,
        items: [{ title: `Oolong tea (${name})`, unit_price: amount, quantity: 1, requires_shipping: false }],
      },
    })
    carts[name] = cart.id
  }

  writeFileSync(
    env("SEED_OUT"),
    JSON.stringify({
      regionId: regions[0].id,
      salesChannelId: channels[0].id,
      publishableKey: keys[0].token,
      carts,
      centsVariantId: products.find((p) => p.title === "Oolong tea sample")!.variants[0].id,
      wholeVariantId: products.find((p) => p.title === "Tea box")!.variants[0].id,
    })
  )
}

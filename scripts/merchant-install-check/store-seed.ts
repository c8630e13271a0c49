// The seed the merchant-install check copies into its stock store and runs with `npx medusa exec`
// there: it imports only Medusa packages, never this repository. What a merchant sets up by hand
// (a TWD region with the plugin's providers, a sales channel, a publishable key, an admin user) plus
// one custom-priced cart per payment to make, written as JSON to SEED_OUT for the check.
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createCartWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createUserAccountWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
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

  writeFileSync(env("SEED_OUT"), JSON.stringify({ regionId: regions[0].id, salesChannelId: channels[0].id, publishableKey: keys[0].token, carts }))
}

/**
 * Seeds the demo store: a TWD region "Taiwan", a warehouse with shipping, a few
 * products (one of them also offered as a monthly subscription) and a publishable key. Run through `medusa exec` by scripts/demo.ts;
 * it does nothing when the store is already seeded, but gives a store without languages its languages.
 */
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, ProductStatus } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"

import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { providerId, providerKey } from "../../src/providers/core/provider-keys"

export const DEMO_REGION = "Taiwan"

/** Payment providers enabled for the demo region. */
const PAYMENT_PROVIDERS = [providerId(providerKey("hosted-checkout", "hosted-checkout")), providerId(providerKey("embedded-card", "embedded-card")), "pp_system_default"]

const PRODUCTS = [
  { title: "Oolong Tea, 150 g", handle: "oolong-tea", sku: "TEA-OOLONG-150", price: 680, description: "High-mountain oolong from Alishan." },
  { title: "Pineapple Cakes, box of 10", handle: "pineapple-cakes", sku: "CAKE-PINE-10", price: 450, description: "Buttery pastry with pineapple filling." },
  { title: "Bubble Tea Kit", handle: "bubble-tea-kit", sku: "KIT-BOBA-1", price: 1200, description: "Tapioca pearls, black tea and cups for six." },
  { title: "Tea of the Month Box", handle: "tea-of-the-month", sku: "BOX-TEA-MONTH", price: 900, description: "A different Taiwanese tea every month, 100 g, with tasting notes." },
]

/** The product offered as a subscription too (docs/subscriptions.md): monthly, 12 periods unless cancelled before. */
const SUBSCRIPTION = { sku: "BOX-TEA-MONTH", plan: { title: "Monthly tea box", kind: "monthly" as const, interval_months: 1, periods: 12, first_charge_delay_days: 0, active: true } }

/**
 * The store's languages (Medusa's translation feature, MEDUSA_FF_TRANSLATION, which scripts/demo.ts turns on):
 * `GET /store/locales` lists them, and the official starter shows its language menu only when it lists any.
 */
const LANGUAGES = ["en-US", "zh-TW"]

async function seedLanguages(container: ExecArgs["container"]) {
  const storeModule = container.resolve(Modules.STORE)
  const [store] = await storeModule.listStores({}, { relations: ["supported_locales"] })
  if (!store.supported_locales?.length) {
    await updateStoresWorkflow(container).run({ input: { selector: { id: store.id }, update: { supported_locales: LANGUAGES.map((locale_code) => ({ locale_code })) } } })
  }
}

export default async function seedDemo({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const regionModule = container.resolve(Modules.REGION)
  const storeModule = container.resolve(Modules.STORE)
  const fulfillmentModule = container.resolve(Modules.FULFILLMENT)
  const salesChannelModule = container.resolve(Modules.SALES_CHANNEL)

  await seedLanguages(container)
  if ((await regionModule.listRegions({ name: DEMO_REGION })).length) {
    logger.info("Demo store already seeded")
    return
  }

  const [store] = await storeModule.listStores()
  let [salesChannel] = await salesChannelModule.listSalesChannels({ name: "Default Sales Channel" })
  if (!salesChannel) {
    const { result } = await createSalesChannelsWorkflow(container).run({
      input: { salesChannelsData: [{ name: "Default Sales Channel" }] },
    })
    salesChannel = result[0]
  }
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: "Taipei Tea House (demo)",
        supported_currencies: [{ currency_code: "twd", is_default: true }],
        default_sales_channel_id: salesChannel.id,
      },
    },
  })

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [{ name: DEMO_REGION, currency_code: "twd", countries: ["tw"], payment_providers: PAYMENT_PROVIDERS }],
    },
  })
  const region = regions[0]
  await createTaxRegionsWorkflow(container).run({ input: [{ country_code: "tw", provider_id: "tp_system" }] })

  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "Taipei Warehouse", address: { city: "Taipei", country_code: "TW", address_1: "No. 7, Section 5, Xinyi Road" } }] },
  })
  const location = locations[0]
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [salesChannel.id] } })

  // Migrations create the default profile; older databases may not have it.
  const [existingProfile] = await fulfillmentModule.listShippingProfiles({ type: "default" })
  const profile =
    existingProfile ??
    (await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default Shipping Profile", type: "default" }] } })).result[0]
  const fulfillmentSet = await fulfillmentModule.createFulfillmentSets({
    name: "Taipei delivery",
    type: "shipping",
    service_zones: [{ name: "Taiwan", geo_zones: [{ country_code: "tw", type: "country" }] }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  })
  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Home delivery",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "Two working days.", code: "standard" },
        prices: [
          { currency_code: "twd", amount: 100 },
          { region_id: region.id, amount: 100 },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  // The storefront's key, which scripts/demo.ts prints and gives the storefront; Medusa's own "Default Publishable
  // API Key" stays unused.
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Demo storefront", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannel.id] } })

  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: PRODUCTS.map((product) => ({
        title: product.title,
        handle: product.handle,
        description: product.description,
        status: ProductStatus.PUBLISHED,
        shipping_profile_id: profile.id,
        options: [{ title: "Size", values: ["One size"] }],
        variants: [
          {
            title: "One size",
            sku: product.sku,
            options: { Size: "One size" },
            manage_inventory: true,
            prices: [{ currency_code: "twd", amount: product.price }],
          },
        ],
        sales_channels: [{ id: salesChannel.id }],
      })),
    },
  })

  // As POST /admin/product-variants/:id/tw-subscription-plans does: the plan, linked to its variant.
  const planVariant = products.flatMap((product) => product.variants ?? []).find((variant) => variant.sku === SUBSCRIPTION.sku)!
  const plan = await container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE).createTwSubscriptionPlans({ ...SUBSCRIPTION.plan, variant_id: planVariant.id })
  await link.create({ [Modules.PRODUCT]: { product_variant_id: planVariant.id }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_plan_id: plan.id } })

  const { data: inventoryItems } = await query.graph({ entity: "inventory_item", fields: ["id"] })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: inventoryItems.map((item) => ({
        location_id: location.id,
        stocked_quantity: 1000,
        inventory_item_id: item.id,
      })),
    },
  })

  logger.info(`Demo store seeded: region ${region.id}, the storefront's publishable key ${keys[0].token} ("${keys[0].title}")`)
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createProductsWorkflow,
  createPromotionsWorkflow,
  createRegionsWorkflow,
  createShippingOptionsWorkflow,
  createStockLocationsWorkflow,
} from "@medusajs/medusa/core-flows"
import { EMBEDDED_PROVIDER_ID, PROVIDER_ID, waitFor } from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)

/**
 * The boot-time check of src/jobs/check-whole-twd-amounts.ts, in the app booted from medusa-config.ts
 * (shared worker mode, so it runs jobs): once after start, one warning per region that offers this
 * plugin's providers and has a price, a shipping option amount or a promotion value with cents.
 * The job waits DELAY_MS after the boot, the time the suite takes to seed: a store as a merchant
 * would have made it, with a NT$99.50 price, before the check looks.
 */
const DELAY_MS = 25_000
const WARNING = "medusa-payment-tw: region"

storeTestRunner({
  // No sandbox here: the reconciliation's reads would only fail.
  env: { TW_WHOLE_TWD_CHECK_DELAY_MS: String(DELAY_MS), TW_RECONCILIATION: "off" },
  testSuite: ({ getContainer }) => {
    const lines: string[] = []
    let seeded: Awaited<ReturnType<typeof seed>>
    let bootedAt: number

    beforeAll(async () => {
      bootedAt = Date.now()
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
      const warn = logger.warn.bind(logger)
      jest.spyOn(logger, "warn").mockImplementation(((message: unknown, ...rest: unknown[]) => {
        lines.push(String(message))
        return warn(message as string, ...(rest as []))
      }) as never)
      seeded = await seed(getContainer())
      if (Date.now() - bootedAt > DELAY_MS - 3_000) {
        throw new Error(`seeding took ${Date.now() - bootedAt} ms, too close to the check's ${DELAY_MS} ms: raise DELAY_MS`)
      }
    })

    describe("amounts with cents in a region that offers the plugin's providers", () => {
      it("are named in one warning per region, once per boot; a region of whole amounts and a region without the providers get none", async () => {
        const warnings = () => lines.filter((line) => line.startsWith(WARNING))
        await waitFor(async () => warnings().length > 0, "the check's warning", DELAY_MS + 60_000)
        // The job runs once: nothing more after another interval.
        await new Promise((resolve) => setTimeout(resolve, DELAY_MS + 5_000))

        expect(warnings()).toHaveLength(1)
        const [line] = warnings()
        expect(line).toContain(`region "Taiwan" (${seeded.taiwan})`)
        expect(line).toContain(`offers ${EMBEDDED_PROVIDER_ID}, ${PROVIDER_ID}, which`)
        expect(line).toContain(`1 product variant price(s) (${seeded.centsVariant}: 99.5)`)
        expect(line).toContain(`1 shipping option amount(s) (${seeded.shippingOption}: 60.5)`)
        expect(line).toContain(`1 promotion value(s) (${seeded.promotion}: 10.5)`)
        // The whole prices, the percentage and the EUR region are fine.
        expect(line).not.toContain(seeded.wholeVariant)
        expect(line).not.toContain(seeded.percentagePromotion)
        expect(lines.join("\n")).not.toContain(seeded.wholeRegion)
        expect(lines.join("\n")).not.toContain(seeded.europe)
        // Never a promotion's code.
        expect(line).not.toContain("TEA-CENTS")
      })
    })
  },
})

async function seed(container: MedusaContainer) {
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "Taiwan", currency_code: "twd", countries: ["tw"], payment_providers: [PROVIDER_ID, EMBEDDED_PROVIDER_ID] },
        // Whole amounts only: the NT$99.50 price and the shipping amount are the other region's.
        { name: "Taiwan wholesale", currency_code: "twd", countries: ["mo"], payment_providers: [PROVIDER_ID] },
        // Cents are fine where the plugin's providers are not offered.
        { name: "Europe", currency_code: "eur", countries: ["de"], payment_providers: ["pp_system_default"] },
      ],
    },
  })
  const [taiwan, wholesale, europe] = regions

  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Oolong sample",
          status: "published",
          options: [{ title: "Size", values: ["Sample", "Tin"] }],
          variants: [
            {
              title: "Sample",
              options: { Size: "Sample" },
              manage_inventory: false,
              // As the admin's price grid saves a region's column: a price with the region's rule.
              prices: [
                { amount: 100, currency_code: "twd" },
                { amount: 99.5, currency_code: "twd", rules: { region_id: taiwan.id } } as { amount: number; currency_code: string },
                { amount: 4.55, currency_code: "eur" },
              ],
            },
            { title: "Tin", options: { Size: "Tin" }, manage_inventory: false, prices: [{ amount: 1280, currency_code: "twd" }] },
          ],
        },
      ],
    },
  })
  const variant = (title: string) => products[0].variants.find((v) => v.title === title)!.id

  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const { result: locations } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Taipei Warehouse" }] } })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: locations[0].id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })
  const [profile] = await fulfillment.listShippingProfiles({ type: "default" })
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Taiwan delivery",
    type: "shipping",
    service_zones: [{ name: "Taiwan", geo_zones: [{ country_code: "tw", type: "country" }] }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: locations[0].id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  })
  const { result: options } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Home delivery",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "Two working days.", code: "standard" },
        prices: [
          { currency_code: "twd", amount: 60 },
          { region_id: taiwan.id, amount: 60.5 },
          { region_id: wholesale.id, amount: 80 },
        ],
      },
    ],
  })

  const { result: promotions } = await createPromotionsWorkflow(container).run({
    input: {
      promotionsData: [
        {
          code: "TEA-CENTS",
          type: "standard",
          status: "active",
          application_method: { type: "fixed", target_type: "order", allocation: "across", value: 10.5, currency_code: "twd" },
          rules: [{ attribute: "region.id", operator: "in", values: [taiwan.id] }],
        },
        {
          code: "TEA-TENTH",
          type: "standard",
          status: "active",
          application_method: { type: "percentage", target_type: "order", allocation: "across", value: 10.5 },
        },
      ],
    },
  })
  const promotion = (code: string) => promotions.find((p) => p.code === code)!.id

  return {
    taiwan: taiwan.id,
    wholeRegion: wholesale.id,
    europe: europe.id,
    centsVariant: variant("Sample"),
    wholeVariant: variant("Tin"),
    shippingOption: options[0].id,
    promotion: promotion("TEA-CENTS"),
    percentagePromotion: promotion("TEA-TENTH"),
  }
}

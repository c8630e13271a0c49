import type { MedusaContainer, PriceDTO, PromotionDTO } from "@medusajs/framework/types"
import { BigNumber, ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { isProviderOf, PROVIDER_IDENTIFIERS } from "../shared/provider-ids"

/**
 * A warning at boot, once per process that runs jobs, for each region that takes payments with one of
 * this plugin's providers but has amounts the providers refuse: both take whole TWD only, while Medusa
 * stores TWD with two decimals and the admin accepts NT$99.50. A cart that holds such a price, shipping
 * option amount or promotion value has a total with cents, and its payment session is refused at
 * checkout. The line names the region and counts what has cents, with a few ids; never a code or a key.
 *
 * A scheduled job that runs once shortly after start, because a boot hook of the plugin cannot read
 * the store: a module's loader only sees its own module (Medusa isolates modules), and a plugin has no
 * other loader. Jobs run in `worker` and `shared` processes, so a store split into server and worker
 * processes logs it in its workers. It only reads.
 */

const TWD = "twd"
const PAGE = 500
/** Ids named per kind of amount. */
const EXAMPLES = 3
/** Price sets looked up per query (to tell a variant's price from a shipping option's). */
const SETS_PER_QUERY = 100

/** One region using this plugin's providers, and what it has that the providers refuse. */
export interface RegionFinding {
  id: string
  name: string
  currency: string
  providers: string[]
  variantPrices: Example[]
  shippingPrices: Example[]
  otherPrices: Example[]
  promotions: Example[]
}

interface Example {
  /** What the merchant looks for: the variant, the shipping option, the promotion (or the price itself). */
  id: string
  amount: number
}

/** A price rule's operator ("eq", "ne", …): the pricing module returns it, but `PriceRuleDTO` does not declare it. */
const operatorOf = (rule: object): string | undefined => ("operator" in rule && typeof rule.operator === "string" ? rule.operator : undefined)

const hasCents = (amount: unknown) => {
  const value = new BigNumber(amount as number).numeric
  return Number.isFinite(value) && !Number.isInteger(value)
}

export default async function checkWholeTwdAmounts(container: MedusaContainer) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    for (const finding of await findAmountsWithCents(container)) {
      logger.warn(describeFinding(finding))
    }
  } catch (error) {
    logger.warn(`medusa-payment-tw: could not check the amounts of the regions that use its providers: ${untrusted((error as Error).message, 300)}`)
  }
}

export async function findAmountsWithCents(container: MedusaContainer): Promise<RegionFinding[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({ entity: "region", fields: ["id", "name", "currency_code", "payment_providers.id"] })
  const findings = new Map<string, RegionFinding>()
  for (const region of regions as Array<{ id: string; name: string; currency_code: string; payment_providers?: Array<{ id: string } | null> | null }>) {
    const providers = (region.payment_providers ?? []).flatMap((p) => (p && PROVIDER_IDENTIFIERS.some((identifier) => isProviderOf(identifier, p.id)) ? [p.id] : []))
    if (providers.length) {
      findings.set(region.id, {
        id: region.id,
        name: region.name,
        currency: region.currency_code.toLowerCase(),
        providers: providers.sort(),
        variantPrices: [],
        shippingPrices: [],
        otherPrices: [],
        promotions: [],
      })
    }
  }
  const twdRegions = [...findings.values()].filter((region) => region.currency === TWD)
  if (twdRegions.length) {
    await addPrices(container, twdRegions)
    await addPromotions(container, twdRegions)
  }
  return [...findings.values()].filter(
    (f) => f.currency !== TWD || f.variantPrices.length + f.shippingPrices.length + f.otherPrices.length + f.promotions.length > 0
  )
}

/** The regions among `regions` a price or promotion applies to: those its region rule names, else all. */
function regionsOf(regions: RegionFinding[], rule: { operator?: string | null; ids: string[] } | undefined, then: (region: RegionFinding) => void) {
  for (const region of regions) {
    const named = rule?.ids.includes(region.id)
    if (!rule || (rule.operator === "ne" || rule.operator === "nin" ? !named : named)) {
      then(region)
    }
  }
}

async function addPrices(container: MedusaContainer, regions: RegionFinding[]) {
  const pricing = container.resolve(Modules.PRICING)
  const withCents: PriceDTO[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await pricing.listPrices({ currency_code: TWD }, { relations: ["price_rules", "price_list"], take: PAGE, skip, order: { id: "ASC" } })
    // A draft price list is not applied to carts.
    withCents.push(...page.filter((price) => hasCents(price.amount) && (!price.price_list || price.price_list.status === "active")))
    if (page.length < PAGE) {
      break
    }
  }
  if (!withCents.length) {
    return
  }
  // Whose price each is: a product variant's or a shipping option's.
  const owners = new Map<string, { kind: "variant" | "shipping"; id: string }>()
  const setIds = [...new Set(withCents.flatMap((price) => (price.price_set_id ? [price.price_set_id] : [])))]
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  for (let at = 0; at < setIds.length; at += SETS_PER_QUERY) {
    const { data } = await query.graph({
      entity: "price_set",
      fields: ["id", "variant.id", "shipping_option.id"],
      filters: { id: setIds.slice(at, at + SETS_PER_QUERY) },
    })
    for (const set of data as Array<{ id: string; variant?: { id: string } | null; shipping_option?: { id: string } | null }>) {
      if (set.variant?.id) {
        owners.set(set.id, { kind: "variant", id: set.variant.id })
      } else if (set.shipping_option?.id) {
        owners.set(set.id, { kind: "shipping", id: set.shipping_option.id })
      }
    }
  }
  for (const price of withCents) {
    const regionRule = price.price_rules?.find((rule) => rule.attribute === "region_id")
    const owner = price.price_set_id ? owners.get(price.price_set_id) : undefined
    const example = { id: owner?.id ?? price.id, amount: new BigNumber(price.amount as number).numeric }
    regionsOf(regions, regionRule?.value ? { operator: operatorOf(regionRule), ids: [regionRule.value] } : undefined, (region) =>
      (owner?.kind === "variant" ? region.variantPrices : owner?.kind === "shipping" ? region.shippingPrices : region.otherPrices).push(example)
    )
  }
}

async function addPromotions(container: MedusaContainer, regions: RegionFinding[]) {
  const promotions = container.resolve(Modules.PROMOTION)
  for (let skip = 0; ; skip += PAGE) {
    const page: PromotionDTO[] = await promotions.listPromotions(
      { status: ["active", "draft"] },
      { relations: ["application_method", "rules", "rules.values"], take: PAGE, skip, order: { id: "ASC" } }
    )
    for (const promotion of page) {
      const method = promotion.application_method
      // A percentage is not an amount; a fixed value is one, in the method's currency.
      if (method?.type !== "fixed" || method.currency_code?.toLowerCase() !== TWD || !hasCents(method.value)) {
        continue
      }
      const rule = promotion.rules?.find((r) => r.attribute === "region.id" || r.attribute === "region_id")
      const ids = (rule?.values ?? []).flatMap((v) => (v.value ? [v.value] : []))
      const example = { id: promotion.id, amount: new BigNumber(method.value as number).numeric }
      regionsOf(regions, rule ? { operator: rule.operator, ids } : undefined, (region) => region.promotions.push(example))
    }
    if (page.length < PAGE) {
      break
    }
  }
}

const few = (examples: Example[], what: string) =>
  `${examples.length} ${what} (${examples
    .slice(0, EXAMPLES)
    .map((e) => `${e.id}: ${e.amount}`)
    .join(", ")}${examples.length > EXAMPLES ? ", …" : ""})`

/** The warning for one region: its name and id, what has cents, how many, and a few ids. */
export function describeFinding(finding: RegionFinding): string {
  // The name is the merchant's text: quoted and escaped.
  const region = `region ${untrusted(finding.name, 80)} (${finding.id})`
  const providers = finding.providers.join(", ")
  if (finding.currency !== TWD) {
    return `medusa-payment-tw: ${region} offers ${providers}, but its currency is ${finding.currency.toUpperCase()}: these providers take TWD only, so its carts cannot be paid with them.`
  }
  const parts = [
    finding.variantPrices.length ? few(finding.variantPrices, "product variant price(s)") : "",
    finding.shippingPrices.length ? few(finding.shippingPrices, "shipping option amount(s)") : "",
    finding.otherPrices.length ? few(finding.otherPrices, "other price(s)") : "",
    finding.promotions.length ? few(finding.promotions, "promotion value(s)") : "",
  ].filter(Boolean)
  return (
    `medusa-payment-tw: ${region} offers ${providers}, which take whole TWD only, but has amounts with cents: ${parts.join("; ")}. ` +
    "A cart with one of them has a total with cents, and both providers refuse it at checkout: make them whole TWD (NT$99, not NT$99.50)."
  )
}

export const config = {
  name: "medusa-payment-tw-check-whole-twd",
  // Once, shortly after the process starts (the tests set the delay).
  schedule: { interval: Number(process.env.TW_WHOLE_TWD_CHECK_DELAY_MS) || 5_000, numberOfExecutions: 1 },
}

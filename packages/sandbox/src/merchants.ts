import { randomBytes } from "node:crypto"
import { z } from "zod"
import type { Persistable } from "./state"

/**
 * A merchant as the service's admin console would configure it. `merchantId` is
 * the merchant's domain; the hosted API token belongs to exactly one domain.
 */
export interface Merchant {
  merchantId: string
  token: string
  paymentServiceActive: boolean
  linePayActive: boolean
  einvoiceActive: boolean
  always3d: boolean
  mobileRequired: boolean
  retryFeature: boolean
  /** The provider's "new event" option: refund, subscription_cancelled and subscription_retry notifications. */
  newEventOption: boolean
  /** Personal-identity merchants: amounts above this are refused with K0001. Null: no limit. */
  riskThreshold: number | null
  /** Production merchants accept API calls only from `ipAllowlist`. */
  production: boolean
  ipAllowlist: string[]
  notifyUrl: string | null
  createdAt: string
}

export const DEFAULT_MERCHANT_ID = "demo-shop"
export const DEFAULT_MERCHANT_TOKEN = "sandbox-hosted-token-demo-shop-0001"

const settingsShape = {
  token: z.string().min(8, "token must have at least 8 characters").regex(/^\S+$/, "token must not contain spaces"),
  paymentServiceActive: z.boolean(),
  linePayActive: z.boolean(),
  einvoiceActive: z.boolean(),
  always3d: z.boolean(),
  mobileRequired: z.boolean(),
  retryFeature: z.boolean(),
  newEventOption: z.boolean(),
  riskThreshold: z.int().min(1).nullable(),
  production: z.boolean(),
  ipAllowlist: z.array(z.string().min(1)),
  notifyUrl: z.url({ protocol: /^https?$/ }).nullable(),
}

export const merchantSettingsSchema = z.strictObject(settingsShape).partial()
export type MerchantSettings = z.output<typeof merchantSettingsSchema>

export const merchantCreateSchema = merchantSettingsSchema.extend({
  merchantId: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "merchantId must be a domain label: a-z, 0-9 and inner hyphens"),
})
export type MerchantCreate = z.output<typeof merchantCreateSchema>

export class MerchantError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string
  ) {
    super(message)
  }
}

export class MerchantRegistry implements Persistable {
  readonly name = "merchants"
  private merchants = new Map<string, Merchant>()

  constructor(
    private readonly now: () => Date,
    private readonly defaults: () => Merchant
  ) {
    this.reset()
  }

  get(merchantId: string): Merchant | undefined {
    return this.merchants.get(merchantId)
  }

  byToken(token: string): Merchant | undefined {
    for (const merchant of this.merchants.values()) {
      if (merchant.token === token) {
        return merchant
      }
    }
    return undefined
  }

  list(): Merchant[] {
    return [...this.merchants.values()]
  }

  create(input: MerchantCreate): Merchant {
    if (this.merchants.has(input.merchantId)) {
      throw new MerchantError(409, `merchant ${input.merchantId} already exists`)
    }
    const { merchantId, ...settings } = input
    const merchant: Merchant = {
      ...blankMerchant(merchantId, this.now()),
      token: settings.token ?? `sandbox-hosted-token-${merchantId}-${randomBytes(6).toString("hex")}`,
      ...stripUndefined(settings),
    }
    this.assertTokenFree(merchant.token, merchantId)
    this.merchants.set(merchantId, merchant)
    return merchant
  }

  /** A new token invalidates the previous one at once, like regenerating it in the console. */
  update(merchantId: string, patch: MerchantSettings): Merchant {
    const merchant = this.merchants.get(merchantId)
    if (!merchant) {
      throw new MerchantError(404, `no merchant ${merchantId}`)
    }
    if (patch.token !== undefined) {
      this.assertTokenFree(patch.token, merchantId)
    }
    Object.assign(merchant, stripUndefined(patch))
    return merchant
  }

  /** Puts the default merchant back, or applies explicit start options to a restored one. */
  ensureDefault(overrides: MerchantSettings): void {
    const fresh = this.defaults()
    const existing = this.merchants.get(fresh.merchantId)
    if (existing) {
      Object.assign(existing, stripUndefined(overrides))
    } else {
      this.merchants.set(fresh.merchantId, fresh)
    }
  }

  private assertTokenFree(token: string, merchantId: string): void {
    const holder = this.byToken(token)
    if (holder && holder.merchantId !== merchantId) {
      throw new MerchantError(409, "token already belongs to another merchant")
    }
  }

  dump(): unknown {
    return [...this.merchants.values()]
  }

  load(data: unknown): void {
    this.merchants = new Map((data as Merchant[]).map((m) => [m.merchantId, m]))
  }

  reset(): void {
    const fresh = this.defaults()
    this.merchants = new Map([[fresh.merchantId, fresh]])
  }
}

/** Settings of a merchant created through the control API before its own options apply. */
export function blankMerchant(merchantId: string, now: Date): Merchant {
  return {
    merchantId,
    token: "",
    paymentServiceActive: true,
    linePayActive: false,
    einvoiceActive: false,
    always3d: false,
    mobileRequired: false,
    retryFeature: false,
    newEventOption: false,
    riskThreshold: null,
    production: false,
    ipAllowlist: [],
    notifyUrl: null,
    createdAt: now.toISOString(),
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

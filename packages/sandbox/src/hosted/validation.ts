import { z } from "zod"
import type { Merchant } from "../merchants"
import { HostedError, stateError, validationError } from "./envelope"
import { carrierIdRule, isValidTaxId } from "./invoice-rules"
import type { InvoiceInfo, PaymentMethod, ProductDetail } from "./records"
import { addMonths, compareDates, parseDate, taipeiDate, type CalendarDate } from "./taipei-time"

/**
 * Request rules of spec 2.3 and 8 for the six create endpoints. A V0001 message
 * lists every failed rule: field rules as `field: problem`, named rules by name.
 *
 * Order of checks (the spec does not say): a wrong or missing `merchantId` first
 * (nothing else about the body can be trusted), then payment service not activated
 * (V0002), then all field rules together (V0001), then risk control (K0001).
 */

export type CreateEndpoint = "checkout" | "subscription" | "schedule" | "binding" | "tokenCharge" | "tokenSubscription"

export interface CreateInput {
  merchantId: string
  amount: number
  currency?: "TWD"
  orderId: string
  successUrl: string | null
  failureUrl: string | null
  productDetails: ProductDetail[]
  allowedPaymentMethods?: PaymentMethod[]
  userId?: string
  userName?: string
  userEmail?: string
  userPhone?: string
  invoiceInfo?: InvoiceInfo
  customId?: string
  note?: string
  use3d?: boolean
  expectedPayoutDate?: string
  numberOfPeriods?: number
  paymentInterval?: number
  startDate?: string | null
  token: string
  payerEmail?: string
}

/** `required` when the key is absent, else the given problem. */
function need(problem: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "required" : problem) }
}

const integerAtLeastOne = () => z.int(need("must be an integer >= 1")).min(1, "must be an integer >= 1")
const text = () => z.string(need("must be a string"))
const nonEmptyText = () => text().min(1, "must not be empty")
const taipeiDateText = () =>
  text().refine((value) => parseDate(value) !== undefined, "must be a date in the form yyyy/MM/dd")
const redirectUrl = () =>
  z
    .string(need("must be an absolute URL or null"))
    .refine(isAbsoluteHttpUrl, "must be an absolute URL with scheme")
    .nullable()

const productItem = z.object(
  {
    productionCode: text(),
    description: text(),
    quantity: integerAtLeastOne(),
    unit: text(),
    unitPrice: z.int(need("must be an integer")),
  },
  need("must be an object")
)

/** invoiceInfo is only checked (and kept) when the merchant has e-invoice activated. */
const invoiceInfoSchema = z.object(
  {
    invoiceType: z.enum(["cloud", "company"], need("must be cloud or company")),
    carrierType: z.enum(["3J0002", "CQ0001", ""], need("must be 3J0002, CQ0001 or an empty string")).optional(),
    carrierId: text().optional(),
    buyerIdentifier: text().optional(),
    buyerName: text().optional(),
    email: z.email(need("must be an email address")).optional(),
  },
  need("must be an object")
)

const FIELDS = {
  merchantId: nonEmptyText(),
  amount: integerAtLeastOne(),
  currency: z.literal("TWD", need("only TWD is supported")).optional(),
  orderId: nonEmptyText(),
  successUrl: redirectUrl(),
  failureUrl: redirectUrl(),
  productDetails: z.array(productItem, need("must be an array of items")).min(1, "must have at least one item"),
  allowedPaymentMethods: z
    .array(z.enum(["card", "cvs", "linePay", "atm"], need("must be card, cvs, linePay or atm")), need("must be an array"))
    .optional(),
  userId: text().optional(),
  userName: text().optional(),
  userEmail: z.email(need("must be an email address")).optional(),
  userPhone: text().optional(),
  invoiceInfo: invoiceInfoSchema.optional(),
  customId: text().optional(),
  note: text().optional(),
  use3d: z.boolean(need("must be a boolean")).optional(),
  expectedPayoutDate: taipeiDateText().optional(),
  numberOfPeriods: z.int(need("must be an integer >= 2")).min(2, "must be an integer >= 2").optional(),
  paymentInterval: z.int(need("must be an integer from 1 to 12")).min(1, "must be an integer from 1 to 12").max(12, "must be an integer from 1 to 12").optional(),
  startDate: taipeiDateText().nullable().optional(),
  token: nonEmptyText(),
  payerEmail: z.email(need("must be an email address")).optional(),
} as const
type FieldName = keyof typeof FIELDS

const ORDER_FIELDS: FieldName[] = ["merchantId", "amount", "currency", "orderId", "productDetails", "userId", "userName", "userEmail", "invoiceInfo", "note"]
const PAGE_FIELDS: FieldName[] = ["successUrl", "failureUrl", "customId", "use3d"]

/** Which fields each endpoint reads (spec 2.3 "Used by"); others are ignored. */
const ENDPOINT_FIELDS: Record<CreateEndpoint, FieldName[]> = {
  checkout: [...ORDER_FIELDS, ...PAGE_FIELDS, "allowedPaymentMethods", "expectedPayoutDate"],
  subscription: [...ORDER_FIELDS, ...PAGE_FIELDS, "numberOfPeriods"],
  schedule: [...ORDER_FIELDS, ...PAGE_FIELDS, "numberOfPeriods", "paymentInterval", "startDate"],
  binding: ["merchantId", "successUrl", "failureUrl", "customId", "note", "payerEmail"],
  tokenCharge: [...ORDER_FIELDS, "userPhone", "expectedPayoutDate", "token"],
  tokenSubscription: [...ORDER_FIELDS, "userPhone", "numberOfPeriods", "paymentInterval", "startDate", "token"],
}

/** Mobile barcodes the emulated tax authority does not know (the format is right, the lookup fails). */
export const REJECTED_CARRIER_IDS: readonly string[] = ["/AAAAAAA", "/0000000"]

export function validateCreate(endpoint: CreateEndpoint, body: unknown, merchant: Merchant, nowMs: number): CreateInput {
  const input = requireObject(body)
  checkMerchantId(input, merchant)
  if (!merchant.paymentServiceActive) {
    throw stateError("PAYMENT_SERVICE_NOT_ACTIVATE")
  }
  const fields = ENDPOINT_FIELDS[endpoint]
  const shape: Record<string, z.ZodType> = {}
  for (const field of fields) {
    // Without e-invoice the invoice block has no effect, so nothing in it can be wrong (it is dropped).
    if (field !== "invoiceInfo" || merchant.einvoiceActive) {
      shape[field] = FIELDS[field]
    }
  }
  const parsed = z.object(shape).safeParse(input)
  const rules = parsed.success ? [] : parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
  rules.push(...crossFieldRules(endpoint, fields, input, merchant, nowMs))
  if (rules.length > 0) {
    throw validationError(rules)
  }
  const data = parsed.data as unknown as CreateInput
  if (fields.includes("amount") && merchant.riskThreshold !== null && data.amount > merchant.riskThreshold) {
    throw new HostedError(400, "K0001", "Risk control rejected the amount", {
      detail: `amount ${data.amount} exceeds the risk-control limit of ${merchant.riskThreshold} for this personal-identity merchant`,
    })
  }
  return data
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw validationError(["body must be a JSON object"])
  }
  return body as Record<string, unknown>
}

/** A token belongs to one domain; a body naming another domain is refused (V0001). */
export function checkMerchantId(input: Record<string, unknown>, merchant: Merchant): void {
  if (input.merchantId === undefined) {
    throw validationError(["merchantId: required"])
  }
  if (input.merchantId !== merchant.merchantId) {
    throw validationError(["merchantId: does not match the domain of the API token"])
  }
}

function crossFieldRules(
  endpoint: CreateEndpoint,
  fields: FieldName[],
  input: Record<string, unknown>,
  merchant: Merchant,
  nowMs: number
): string[] {
  const rules: string[] = []
  if (fields.includes("productDetails") && Number.isInteger(input.amount)) {
    const total = productTotal(input.productDetails)
    if (total !== undefined && total !== input.amount) {
      rules.push("PRODUCT_AMOUNT_NOT_MATCH")
    }
  }
  if (fields.includes("userName") && merchant.einvoiceActive && (!nonEmpty(input.userName) || !nonEmpty(input.userEmail))) {
    rules.push("USER_NAME_AND_EMAIL_REQUIRED")
  }
  if (
    fields.includes("allowedPaymentMethods") &&
    Array.isArray(input.allowedPaymentMethods) &&
    input.allowedPaymentMethods.includes("linePay") &&
    !merchant.linePayActive
  ) {
    rules.push("LINE_PAY_NOT_ACTIVE")
  }
  if (fields.includes("invoiceInfo") && merchant.einvoiceActive && input.invoiceInfo && typeof input.invoiceInfo === "object") {
    rules.push(...invoiceRules(input.invoiceInfo as Record<string, unknown>))
  }
  if (fields.includes("userPhone") && merchant.mobileRequired && !isMobilePhone(input.userPhone)) {
    rules.push("userPhone: a valid mobile phone number is required for this domain")
  }
  if (fields.includes("startDate") && typeof input.startDate === "string") {
    const start = parseDate(input.startDate)
    if (start) {
      rules.push(...startDateRules(endpoint, start, taipeiDate(nowMs)))
    }
  }
  return rules
}

/**
 * Scheduled checkout: today up to (not including) the same day 12 months ahead.
 * Token subscription: strictly after today, same upper bound.
 */
function startDateRules(endpoint: CreateEndpoint, start: CalendarDate, today: CalendarDate): string[] {
  const rules: string[] = []
  const vsToday = compareDates(start, today)
  if (vsToday < 0 || (endpoint === "tokenSubscription" && vsToday === 0)) {
    rules.push("START_DATE_MUST_GREATER_THAN_TODAY")
  }
  if (compareDates(start, addMonths(today, 12)) >= 0) {
    rules.push("START_DATE_MUST_LESS_THAN_12_MONTHS")
  }
  return rules
}

function invoiceRules(info: Record<string, unknown>): string[] {
  const rules: string[] = []
  if (info.invoiceType === "cloud") {
    if (info.carrierType === undefined) {
      rules.push("invoiceInfo.carrierType: required for cloud invoices")
    } else if (info.carrierType === "3J0002" || info.carrierType === "CQ0001") {
      if (!carrierIdRule(info.carrierType, info.carrierId, REJECTED_CARRIER_IDS)) {
        rules.push("INVALID_CARRIER_ID")
      }
    }
  }
  if (info.invoiceType === "company") {
    if (info.buyerIdentifier === undefined) {
      rules.push("invoiceInfo.buyerIdentifier: required for company invoices")
    } else if (typeof info.buyerIdentifier !== "string" || !isValidTaxId(info.buyerIdentifier)) {
      rules.push("INVALID_TAX_ID_NUMBER")
    }
  }
  return rules
}

/** Sum of quantity x unitPrice, or undefined when the items are not all well-formed. */
export function productTotal(items: unknown): number | undefined {
  if (!Array.isArray(items) || items.length === 0) {
    return undefined
  }
  let total = 0
  for (const item of items) {
    const { quantity, unitPrice } = (item ?? {}) as { quantity?: unknown; unitPrice?: unknown }
    if (!Number.isInteger(quantity) || !Number.isInteger(unitPrice)) {
      return undefined
    }
    total += (quantity as number) * (unitPrice as number)
  }
  return total
}

export const productDetailsSchema = FIELDS.productDetails

export function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "")
}

/** Taiwan mobile numbers: 09xxxxxxxx or +8869xxxxxxxx. */
function isMobilePhone(value: unknown): boolean {
  return typeof value === "string" && /^(?:09\d{8}|\+8869\d{8})$/.test(value)
}

function nonEmpty(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== ""
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

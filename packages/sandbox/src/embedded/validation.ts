import { ApiError, invalid } from "./envelope"

/**
 * Field rules of spec 2.1, 2.2 and 8. The first rule broken is reported, with its field
 * (`metadata.<key>` for one metadata pair). Unknown body fields are refused, so a
 * misspelt field cannot be silently ignored.
 */

export const AMOUNT_MAX = 200_000
export const ORDER_ID_MAX = 255
export const DESCRIPTION_MAX = 1000
export const METADATA_MAX_PAIRS = 20
export const METADATA_KEY_MAX = 40
export const METADATA_VALUE_MAX = 500
/** "8 KB total": the UTF-8 bytes of the metadata's JSON. */
export const METADATA_MAX_BYTES = 8 * 1024
export const LIST_LIMIT_MAX = 100
export const LIST_LIMIT_DEFAULT = 10

export type Body = Record<string, unknown>

export function parseBody(raw: Buffer): Body {
  if (raw.length === 0) {
    return {}
  }
  let value: unknown
  try {
    value = JSON.parse(raw.toString("utf8"))
  } catch {
    throw invalid(null, "The request body is not valid JSON")
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(null, "The request body must be a JSON object")
  }
  return value as Body
}

export function onlyFields(body: Body, allowed: string[], message = "is not a field of this request"): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw invalid(key, `${key} ${message}`)
    }
  }
}

/** Characters as code points, so one emoji is one character. */
export function length(value: string): number {
  return [...value].length
}

export function amountField(value: unknown, field = "amount"): number {
  if (value === undefined) {
    throw new ApiError(400, "INVALID_AMOUNT", `${field} is required`, field)
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > AMOUNT_MAX) {
    throw new ApiError(400, "INVALID_AMOUNT", `${field} must be an integer from 1 to ${AMOUNT_MAX}`, field)
  }
  return value
}

export function currencyField(value: unknown): "TWD" {
  if (value === undefined || value === "TWD") {
    return "TWD"
  }
  throw new ApiError(400, "INVALID_CURRENCY", "currency must be TWD", "currency")
}

export function requiredString(value: unknown, field: string): string {
  if (value === undefined) {
    throw invalid(field, `${field} is required`)
  }
  if (typeof value !== "string") {
    throw invalid(field, `${field} must be a string`)
  }
  return value
}

export function orderIdField(value: unknown): string {
  const orderId = requiredString(value, "orderId")
  if (length(orderId) < 1 || length(orderId) > ORDER_ID_MAX) {
    throw invalid("orderId", `orderId must be 1 to ${ORDER_ID_MAX} characters`)
  }
  if (orderId.includes("#") || [...orderId].some(isControl)) {
    throw invalid("orderId", "orderId must not contain # or control characters")
  }
  return orderId
}

/** C0 controls, DEL and C1 controls. */
function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0
  return code < 0x20 || (code >= 0x7f && code <= 0x9f)
}

export function descriptionField(value: unknown): string | null {
  if (value === undefined || value === null) {
    return null
  }
  if (typeof value !== "string") {
    throw invalid("description", "description must be a string")
  }
  if (length(value) > DESCRIPTION_MAX) {
    throw invalid("description", `description must be at most ${DESCRIPTION_MAX} characters`)
  }
  return value
}

export function booleanField(value: unknown, field: string): boolean {
  if (value === undefined) {
    return false
  }
  if (typeof value !== "boolean") {
    throw invalid(field, `${field} must be true or false`)
  }
  return value
}

/** Metadata rules; a value that is not an object at all is a plain 400 `INVALID_REQUEST`. */
export function metadataField(value: unknown): Record<string, string> {
  if (value === undefined) {
    return {}
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid("metadata", "metadata must be an object of string values")
  }
  const entries = Object.entries(value as Record<string, unknown>)
  const exceeded = (field: string, message: string) => new ApiError(400, "METADATA_LIMIT_EXCEEDED", message, field)
  if (entries.length > METADATA_MAX_PAIRS) {
    throw exceeded("metadata", `metadata may have at most ${METADATA_MAX_PAIRS} pairs`)
  }
  for (const [key, item] of entries) {
    if (!new RegExp(`^[A-Za-z0-9_]{1,${METADATA_KEY_MAX}}$`).test(key)) {
      throw exceeded(`metadata.${key}`, `metadata keys must be 1 to ${METADATA_KEY_MAX} letters, digits or underscores`)
    }
    if (typeof item !== "string") {
      throw exceeded(`metadata.${key}`, "metadata values must be strings")
    }
    if (length(item) > METADATA_VALUE_MAX) {
      throw exceeded(`metadata.${key}`, `metadata values must be at most ${METADATA_VALUE_MAX} characters`)
    }
  }
  if (Buffer.byteLength(JSON.stringify(value), "utf8") > METADATA_MAX_BYTES) {
    throw exceeded("metadata", `metadata must be at most ${METADATA_MAX_BYTES} bytes in total (as JSON)`)
  }
  return value as Record<string, string>
}

export function limitParam(query: URLSearchParams): number {
  const raw = query.get("limit")
  if (raw === null) {
    return LIST_LIMIT_DEFAULT
  }
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > LIST_LIMIT_MAX) {
    throw invalid("limit", `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`)
  }
  return Number(raw)
}

export function unixSecondsParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name)
  if (raw === null) {
    return undefined
  }
  if (!/^\d{1,12}$/.test(raw)) {
    throw invalid(name, `${name} must be unix seconds`)
  }
  return Number(raw)
}

/** One page of a newest-first list: `startingAfter` (an id in the list) continues after it. */
export function page<T extends { id: string }>(items: T[], query: URLSearchParams): { items: T[]; hasMore: boolean } {
  const limit = limitParam(query)
  let start = 0
  const after = query.get("startingAfter")
  if (after !== null) {
    const index = items.findIndex((i) => i.id === after)
    if (index < 0) {
      throw invalid("startingAfter", "startingAfter is not an id in this list")
    }
    start = index + 1
  }
  return { items: items.slice(start, start + limit), hasMore: items.length > start + limit }
}

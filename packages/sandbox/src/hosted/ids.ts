import { randomInt } from "node:crypto"
import { formatDate, taipeiDate } from "./taipei-time"

/** Identifier formats of spec 2.2. */

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const UPPER_ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

function randomString(length: number, alphabet: string): string {
  let out = ""
  for (let i = 0; i < length; i++) {
    out += alphabet[randomInt(alphabet.length)]
  }
  return out
}

/** Transaction and checkout ids: 27 alphanumeric characters. */
export function transactionId(): string {
  return randomString(27, ALPHANUMERIC)
}

/** `P` + Taipei date `yyyyMMdd` + 8 characters: 17 in all. */
export function transactionHid(nowMs: number): string {
  return `P${formatDate(taipeiDate(nowMs), "")}${randomString(8, UPPER_ALPHANUMERIC)}`
}

/** `S` + Taipei date `yyyyMMdd` + 8 characters: 17 in all. */
export function subscriptionHid(nowMs: number): string {
  return `S${formatDate(taipeiDate(nowMs), "")}${randomString(8, UPPER_ALPHANUMERIC)}`
}

export const TRANSACTION_ID_PATTERN = /^[0-9A-Za-z]{27}$/
export const TRANSACTION_HID_PATTERN = /^P\d{8}[0-9A-Z]{8}$/
export const SUBSCRIPTION_HID_PATTERN = /^S\d{8}[0-9A-Z]{8}$/

/** Card tokens: format not shown; the sandbox uses `tok_` + 40 alphanumerics. */
export function cardToken(): string {
  return `tok_${randomString(40, ALPHANUMERIC)}`
}

/** Refund ids and refund-event ids: format not shown; 27 alphanumerics like other ids. */
export function refundId(): string {
  return randomString(27, ALPHANUMERIC)
}

export function authCode(): string {
  return randomString(6, "0123456789")
}

export function digits(length: number): string {
  return randomString(length, "0123456789")
}

export function paymentCode(): string {
  return randomString(14, UPPER_ALPHANUMERIC)
}

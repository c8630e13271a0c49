import { createHmac } from "node:crypto"

/**
 * `Svc-Signature` of spec 6: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each `v1` the
 * HMAC-SHA256 of `${t}.${rawBody}` keyed with the whole `whsec_` string. The first
 * secret given is the current one; a second is the rotated-out one still in its 24 h.
 */
export function signatureHeader(secrets: string[], timestampSec: number, rawBody: string): string {
  const parts = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`${timestampSec}.${rawBody}`, "utf8").digest("hex")}`)
  return [`t=${timestampSec}`, ...parts].join(",")
}

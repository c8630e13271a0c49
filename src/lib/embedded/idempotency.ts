import { randomUUID } from "node:crypto"
import { z } from "zod"
import { validateRequest } from "../http/validate"

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
export const IDEMPOTENCY_REPLAYED_HEADER = "Idempotency-Replayed"

/**
 * 1 to 255 printable ASCII characters (spec 4). Leading or trailing spaces are
 * refused too: HTTP strips them, so the service would store a different key.
 */
const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/, "Must be printable ASCII")
  .refine((key) => key.trim() === key, "Must not start or end with a space")

export interface IdempotentRequestOptions {
  /** 1 to 255 printable ASCII characters; a random UUID when omitted. Pass your own to retry later. */
  idempotencyKey?: string
}

const keyOption = z.object({ idempotencyKey })

/** The caller's key, checked, or a fresh one. The same key is reused on every retry of the call. */
export function resolveIdempotencyKey(given: string | undefined): string {
  if (given === undefined) {
    return randomUUID()
  }
  return validateRequest(keyOption, { idempotencyKey: given }, "idempotency key").idempotencyKey
}

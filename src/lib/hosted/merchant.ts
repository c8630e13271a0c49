import type { z } from "zod"
import { InvalidRequestError, validateRequest } from "../http"
import type { RequestSchemas } from "./schemas/rules"

/** What the hosted resources that send bodies share: the merchant they act for, its rules and the clock. */
export interface HostedMerchant {
  merchantId: string
  /** Origin of the merchant's hosted pages. */
  checkoutHost: string
  schemas: RequestSchemas
  now: () => Date
}

/** `merchantId` comes from the client options; passing it is allowed only when it matches. */
export type MerchantOptional<T extends { merchantId: string }> = Omit<T, "merchantId"> & { merchantId?: string }

/**
 * Fills `merchantId` from the client options and validates the body. A caller's
 * different `merchantId` is refused here: the service would answer `V0001`, and a
 * mix-up of merchants is a bug worth catching before any network call.
 */
export function checkedBody<S extends z.ZodType>(
  merchant: HostedMerchant,
  schema: S,
  input: { merchantId?: string } & object,
  what: string
): z.output<S> {
  if (input === null || typeof input !== "object") {
    throw new InvalidRequestError({ code: "CLIENT_VALIDATION", message: `Invalid ${what}: body must be an object` })
  }
  if (input.merchantId !== undefined && input.merchantId !== merchant.merchantId) {
    throw new InvalidRequestError({
      code: "CLIENT_VALIDATION",
      field: "merchantId",
      message: `Invalid ${what}: merchantId differs from the merchant this client is configured for`,
    })
  }
  return validateRequest(schema, { ...input, merchantId: merchant.merchantId }, what)
}

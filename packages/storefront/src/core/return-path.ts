import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"

/**
 * Where the payment service sends the shopper back, as the store takes it: a
 * path on the storefront with one leading slash and no query (the store adds
 * its storefront's origin; nothing a shopper sends may point elsewhere).
 */
const RETURN_PATH = /^\/(?!\/)[^?#\\]*$/

export function checkedReturnPath(path: string | undefined): string | undefined {
  if (path === undefined) {
    return undefined
  }
  if (path.length > 200 || !RETURN_PATH.test(path)) {
    throw new TwPaymentError("The return path must be a path on the storefront: one leading '/', no query, at most 200 characters.", {
      code: KIT_ERROR_CODES.paymentDataInvalid,
    })
  }
  return path
}

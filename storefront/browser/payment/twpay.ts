/**
 * The payment service's browser SDK: its loader and types are the storefront
 * kit's (packages/storefront/src/core/twpay-loader.ts), which loads the
 * version the provider pins with its integrity hash.
 */
import { type TwPayClient, twPayClient as kitTwPayClient, type TwPaySource } from "medusa-payment-tw-storefront"

export type { TwPayChangeEvent, TwPayClient, TwPayElements, TwPayError, TwPayIntent, TwPayPaymentElement, TwPaySource, TwPayTheme } from "medusa-payment-tw-storefront"
export { loadTwPay } from "medusa-payment-tw-storefront"

/** The storefront is in English; the SDK's own default is Traditional Chinese. */
export function twPayClient(source: TwPaySource & { publishableKey: string }): Promise<TwPayClient> {
  return kitTwPayClient({ ...source, locale: "en" })
}

import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import { createContext, type ReactNode, useContext, useMemo } from "react"
import { type KitLocale, pickLocale } from "../core/locale.js"
import { TwPaymentError } from "../core/payment-error.js"
import { type ErrorCode, type KitTextKey, messageFor } from "../messages/index.js"

/** What every component of the kit reads: the store client, the shopper's language and the request headers. */
export interface TwPaymentContextValue {
  sdk: Medusa
  locale: KitLocale
  /** Sent with every store call (a server-side storefront's `authorization`); the js-sdk's own session otherwise. */
  headers?: ClientHeaders
  /** A text of the catalogue in the chosen language: a label (`KitTextKey`) or an error code. */
  text(key: KitTextKey | ErrorCode, params?: Record<string, string>): string
  /** What the shopper reads about a failure: the text of its code, the generic text for anything else. */
  errorText(error: unknown): string
}

const TwPaymentContext = createContext<TwPaymentContextValue | undefined>(undefined)

export interface TwPaymentProviderProps {
  sdk: Medusa
  /** Any locale tag (`zh-TW`, `zh-Hant`, `en-US`, …): `pickLocale` makes it the kit's `en` or `zh-TW`. */
  locale?: string
  headers?: ClientHeaders
  children?: ReactNode
}

/** Holds the sdk client and the language for the components under it. */
export function TwPaymentProvider({ sdk, locale, headers, children }: TwPaymentProviderProps) {
  const kitLocale = pickLocale(locale)
  const value = useMemo<TwPaymentContextValue>(
    () => ({
      sdk,
      locale: kitLocale,
      ...(headers ? { headers } : {}),
      text: (key, params) => messageFor(key, kitLocale, params),
      errorText: (error) => messageFor(error instanceof TwPaymentError && error.code ? error.code : "generic_error", kitLocale),
    }),
    [sdk, kitLocale, headers]
  )
  return <TwPaymentContext.Provider value={value}>{children}</TwPaymentContext.Provider>
}

/** The provider's value; throws outside a `TwPaymentProvider`. */
export function useTwPayment(): TwPaymentContextValue {
  const value = useContext(TwPaymentContext)
  if (!value) {
    throw new Error("medusa-payment-tw-storefront/react: wrap the components in a <TwPaymentProvider>.")
  }
  return value
}

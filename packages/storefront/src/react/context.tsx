"use client"
import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react"
import { type KitLocale, pickLocale } from "../core/locale.js"
import { TwPaymentError } from "../core/payment-error.js"
import { proxyStoreClient } from "../core/store-client.js"
import { type ErrorCode, type KitTextKey, messageFor } from "../messages/index.js"

/**
 * The host's classes for the parts of every component, so that they wear the storefront's own design (its
 * radio cards, buttons and headings); each part keeps its semantics and its `data-testid`.
 */
export interface TwPaymentClassNames {
  /** A group's title: a fieldset's `legend`, a section's `h2`. */
  title?: string
  /** One choice: the element holding a radio and its label (payment options, plans, saved cards, e-invoice kinds). */
  option?: string
  radio?: string
  optionLabel?: string
  /** The action of a component: pay, subscribe, add a card. */
  button?: string
  /** An action on a listed item: delete a card, cancel a subscription. */
  secondaryButton?: string
  /** A listed saved card or subscription. */
  item?: string
  /** A text field's wrapper, holding its label, its input and its error (the e-invoice's tax id, company name, email, carrier). */
  field?: string
  /** A text input (not a radio). */
  input?: string
  /** A failure's text: a field's inline error, a component's `ErrorMessage`. */
  error?: string
}

/** What every component of the kit reads: the store client, the shopper's language and the request headers. */
export interface TwPaymentContextValue {
  sdk: Medusa
  locale: KitLocale
  classNames: TwPaymentClassNames
  /** Sent with every store call (a server-side storefront's `authorization`); the js-sdk's own session otherwise. */
  headers?: ClientHeaders
  /** A text of the catalogue in the chosen language: a label (`KitTextKey`) or an error code. */
  text(key: KitTextKey | ErrorCode, params?: Record<string, string>): string
  /** What the shopper reads about a failure: the text of its code, the generic text for anything else. */
  errorText(error: unknown): string
}

const TwPaymentContext = createContext<TwPaymentContextValue | undefined>(undefined)

export interface TwPaymentProviderProps {
  /** The js-sdk client the components call the store with. */
  sdk?: Medusa
  /**
   * Instead of `sdk`: the path where the storefront mounts `storeProxy` (`"/api"` for
   * `app/api/store/[...path]/route.ts`). The provider then makes its own client for that path of the
   * page's origin, which sends the storefront's cookies, so a server component can render the provider.
   */
  apiPath?: string
  /** Any locale tag (`zh-TW`, `zh-Hant`, `en-US`, …): `pickLocale` makes it the kit's `en` or `zh-TW`. */
  locale?: string
  /**
   * A cookie the browser reads the locale from when `locale` is absent: a page prerendered at build
   * (the official starter's product pages) was rendered without the shopper's language, which the
   * starter keeps in its `_medusa_locale` cookie. Read after the page has loaded, so the first render
   * matches the server's.
   */
  localeCookie?: string
  headers?: ClientHeaders
  /** The storefront's classes for the components' parts (`TwPaymentClassNames`). */
  classNames?: TwPaymentClassNames
  children?: ReactNode
}

/**
 * A client for the storefront's own store proxy, keeping the store's error codes. Server rendering makes
 * one too, with a stand-in origin: the components call the store only from effects, in the browser.
 */
const proxyClient = (apiPath: string) => proxyStoreClient(`${typeof window === "undefined" ? "http://localhost" : window.location.origin}${apiPath.replace(/\/+$/, "")}`)

/** A cookie's value in the browser, undefined when it is not set. */
function cookieValue(name: string): string | undefined {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith(`${name}=`))
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined
}

/** Holds the sdk client and the language for the components under it. */
export function TwPaymentProvider({ sdk, apiPath, locale, localeCookie, headers, classNames, children }: TwPaymentProviderProps) {
  const [cookieLocale, setCookieLocale] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (!locale && localeCookie) {
      setCookieLocale(cookieValue(localeCookie))
    }
  }, [locale, localeCookie])
  const kitLocale = pickLocale(locale || cookieLocale)
  const client = useMemo(() => sdk ?? proxyClient(apiPath ?? "/api"), [sdk, apiPath])
  const value = useMemo<TwPaymentContextValue>(
    () => ({
      sdk: client,
      locale: kitLocale,
      classNames: classNames ?? {},
      ...(headers ? { headers } : {}),
      text: (key, params) => messageFor(key, kitLocale, params),
      errorText: (error) => messageFor(error instanceof TwPaymentError && error.code ? error.code : "generic_error", kitLocale),
    }),
    [client, kitLocale, headers, classNames]
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

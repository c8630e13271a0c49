"use client"
import type { HttpTypes } from "@medusajs/types"
import { useEffect, useId, useState } from "react"
import { HOSTED_METHODS, type HostedMethod } from "../core/hosted-checkout.js"
import { isEmbeddedCardProvider, isHostedCheckoutProvider } from "../core/provider-ids.js"
import { listSavedCards, type SavedCard } from "../core/saved-cards.js"
import { storeCall } from "../core/store-answer.js"
import type { KitTextKey } from "../messages/index.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"

/** One way to pay the plugin offers a cart. */
export type PaymentOption =
  | { kind: "hosted"; providerId: string; method: HostedMethod }
  | { kind: "embedded_card"; providerId: string }
  | { kind: "saved_card"; providerId: string; savedCard: SavedCard }

/** A stable key of an option (also its radio's value). */
export const paymentOptionKey = (option: PaymentOption): string =>
  option.kind === "hosted" ? `hosted:${option.method}` : option.kind === "saved_card" ? `saved_card:${option.savedCard.id}` : "embedded_card"

const METHOD_LABEL: Record<HostedMethod, KitTextKey> = {
  card: "option_hosted_card",
  cvs: "option_hosted_cvs",
  atm: "option_hosted_atm",
  linePay: "option_hosted_linePay",
}

export interface PaymentOptionsProps {
  cart: HttpTypes.StoreCart
  value?: PaymentOption
  onChange(option: PaymentOption): void
  /** The hosted page's methods the store's provider options allow; all of them by default. */
  methods?: readonly HostedMethod[]
  /** The logged-in customer: their active saved cards are offered too. */
  customerId?: string
  className?: string
}

/**
 * The plugin's ways to pay for the cart's region, as radios: the hosted
 * page's methods, the embedded card form, and a logged-in customer's saved
 * cards. Other providers of the region are not this component's to list.
 */
export function PaymentOptions({ cart, value, onChange, methods = HOSTED_METHODS, customerId, className }: PaymentOptionsProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const id = useId()
  const [options, setOptions] = useState<PaymentOption[] | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const methodsKey = methods.join(",")

  useEffect(() => {
    let current = true
    setOptions(undefined)
    setError(undefined)
    void (async () => {
      const { payment_providers } = await storeCall(() => sdk.store.payment.listPaymentProviders({ region_id: cart.region_id! }, headers))
      const hosted = payment_providers.find((p) => isHostedCheckoutProvider(p.id))
      const embedded = payment_providers.find((p) => isEmbeddedCardProvider(p.id))
      // A saved card is charged through the hosted-checkout provider; a listing that fails offers none.
      const cards = hosted && customerId ? await listSavedCards(sdk, headers).catch(() => [] as SavedCard[]) : []
      const found: PaymentOption[] = [
        ...(hosted ? cards.filter((card) => card.status === "active").map((savedCard): PaymentOption => ({ kind: "saved_card", providerId: hosted.id, savedCard })) : []),
        ...(hosted ? (methodsKey.split(",") as HostedMethod[]).map((method): PaymentOption => ({ kind: "hosted", providerId: hosted.id, method })) : []),
        ...(embedded ? [{ kind: "embedded_card", providerId: embedded.id } as PaymentOption] : []),
      ]
      if (current) {
        setOptions(found)
      }
    })().catch((failure: unknown) => current && setError(failure))
    return () => {
      current = false
    }
  }, [sdk, headers, cart.region_id, customerId, methodsKey])

  const labelOf = (option: PaymentOption) =>
    option.kind === "hosted"
      ? text(METHOD_LABEL[option.method])
      : option.kind === "embedded_card"
        ? text("option_embedded_card")
        : text("option_saved_card", { last4: option.savedCard.last4 ?? "····" })

  return (
    <fieldset className={className} data-testid="payment-options" aria-busy={options === undefined && !error}>
      <legend className={classNames.title}>{text("payment_options_legend")}</legend>
      {options === undefined && !error ? <p role="status">{text("loading")}</p> : null}
      {options?.length === 0 ? <p role="status">{text("payment_options_empty")}</p> : null}
      {options?.map((option) => {
        const key = paymentOptionKey(option)
        const inputId = `${id}-${key}`
        return (
          <div key={key} className={classNames.option} data-option={key}>
            <input
              type="radio"
              className={classNames.radio}
              id={inputId}
              name={`${id}-payment-option`}
              value={key}
              checked={value ? paymentOptionKey(value) === key : false}
              onChange={() => onChange(option)}
            />
            <label htmlFor={inputId} className={classNames.optionLabel}>{labelOf(option)}</label>
          </div>
        )
      })}
      <ErrorMessage error={error} />
    </fieldset>
  )
}

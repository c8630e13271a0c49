"use client"
import type { HttpTypes } from "@medusajs/types"
import { useEffect, useId, useState } from "react"
import type { CartCompletion } from "../core/cart-completion.js"
import { listSavedCards, type SavedCard } from "../core/saved-cards.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import type { InvoiceSource } from "./invoice-source.js"
import { SavedCardPayButton } from "./saved-card-pay-button.js"
import { savedCardName } from "./saved-card-name.js"

export interface SavedCardPickerProps {
  cart: HttpTypes.StoreCart
  /** The logged-in customer (a cart they started as a guest becomes theirs first). */
  customerId: string
  invoice?: InvoiceSource
  providerId?: string
  /** What completing the cart came to: an order, or why not (a decline is also shown here). */
  onCompleted(completion: CartCompletion): void
  className?: string
}

/**
 * The customer's active saved cards as radios and "Pay with this card"
 * (`SavedCardPayButton`): a session naming the card, then the completion
 * that charges it, without leaving the store.
 */
export function SavedCardPicker({ cart, customerId, invoice, providerId, onCompleted, className }: SavedCardPickerProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const id = useId()
  const [cards, setCards] = useState<SavedCard[] | undefined>(undefined)
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)

  useEffect(() => {
    listSavedCards(sdk, headers).then((found) => {
      const active = found.filter((card) => card.status === "active")
      setCards(active)
      setChosen((current) => current ?? active[0]?.id)
    }, setError)
  }, [sdk, headers])

  return (
    <fieldset className={className} data-testid="saved-card-picker" aria-busy={cards === undefined && error === undefined}>
      <legend className={classNames.title}>{text("saved_card_picker_legend")}</legend>
      {cards === undefined && error === undefined ? <p role="status">{text("loading")}</p> : null}
      {cards?.length === 0 ? <p>{text("saved_cards_empty")}</p> : null}
      {cards?.map((card) => (
        <div key={card.id} className={classNames.option}>
          <input type="radio" className={classNames.radio} id={`${id}-${card.id}`} name={`${id}-card`} value={card.id} checked={chosen === card.id} onChange={() => setChosen(card.id)} />
          <label htmlFor={`${id}-${card.id}`} className={classNames.optionLabel}>{savedCardName(card, text)}</label>
        </div>
      ))}
      <SavedCardPayButton cart={cart} customerId={customerId} savedCardId={chosen} invoice={invoice} providerId={providerId} onCompleted={onCompleted} />
      <ErrorMessage error={error} />
    </fieldset>
  )
}

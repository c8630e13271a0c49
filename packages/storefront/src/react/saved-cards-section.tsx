"use client"
import { useCallback, useEffect, useState } from "react"
import { type CardBinding, deleteSavedCard, listSavedCards, type SavedCard, startCardBinding } from "../core/saved-cards.js"
import { assignLocation, useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"
import { savedCardName } from "./saved-card-name.js"

export interface SavedCardsSectionProps {
  /** Where the binding page sends the shopper back: this section's page (the store's configured one when absent). */
  returnPath?: string
  providerId?: string
  /** Called with the binding instead of sending the page to its `checkoutUrl`. */
  onBindingStarted?: (binding: CardBinding) => void
  /** While a card is being saved, the list is read again this often (ms), a minute at most. */
  pollMs?: number
  className?: string
}

/**
 * The account's saved cards: the list (a card being saved is read again
 * until the service's notification made it ready), "Add a card" (the
 * service's binding page) and a delete button per card. For a logged-in
 * customer; a guest reads the store's `saved_card_login_required`-style refusal.
 */
export function SavedCardsSection({ returnPath, providerId, onBindingStarted = (binding) => assignLocation(binding.checkoutUrl), pollMs = 2000, className }: SavedCardsSectionProps) {
  const { sdk, headers, text, classNames } = useTwPayment()
  const [cards, setCards] = useState<SavedCard[] | undefined>(undefined)
  const [loadError, setLoadError] = useState<unknown>(undefined)
  const { busy, error, run } = useBusyAction()

  const reload = useCallback(() => listSavedCards(sdk, headers).then(setCards, setLoadError), [sdk, headers])
  useEffect(() => {
    void reload()
  }, [reload])

  const binding = cards?.some((card) => card.status === "binding") ?? false
  useEffect(() => {
    if (!binding) {
      return
    }
    let rounds = Math.ceil(60_000 / pollMs)
    const timer = setInterval(() => (rounds-- > 0 ? void reload() : clearInterval(timer)), pollMs)
    return () => clearInterval(timer)
  }, [binding, pollMs, reload])

  const add = () =>
    void run(async () => {
      onBindingStarted(await startCardBinding(sdk, { ...(returnPath ? { returnPath } : {}), ...(providerId ? { providerId } : {}) }, headers))
    })
  const remove = (card: SavedCard) =>
    void run(async () => {
      await deleteSavedCard(sdk, card.id, headers)
      await reload()
    })

  return (
    <section className={className} data-testid="saved-cards-section" aria-busy={cards === undefined || busy}>
      <h2 className={classNames.title}>{text("saved_cards_title")}</h2>
      {cards === undefined && loadError === undefined ? <p role="status">{text("loading")}</p> : null}
      <ErrorMessage error={loadError} />
      {cards?.length === 0 ? <p data-testid="saved-cards-empty">{text("saved_cards_empty")}</p> : null}
      {cards?.length ? (
        <ul aria-live="polite">
          {cards.map((card) => {
            const name = savedCardName(card, text)
            return (
              <li key={card.id} className={classNames.item} data-testid="saved-card" data-status={card.status}>
                <span data-testid="saved-card-name">{name}</span> <span data-testid="saved-card-status">{text(`saved_card_status_${card.status}`)}</span>{" "}
                <button type="button" className={classNames.secondaryButton} onClick={() => remove(card)} disabled={busy}>
                  {text("saved_card_delete", { card: name })}
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      {loadError === undefined ? (
        <button type="button" className={classNames.button} onClick={add} disabled={busy || cards === undefined} aria-busy={busy} data-testid="saved-card-add">
          {busy ? text("busy") : text("saved_card_add")}
        </button>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  )
}

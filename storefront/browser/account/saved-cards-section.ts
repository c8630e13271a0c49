import { deleteSavedCard, listSavedCards, type SavedCard, startCardBinding } from "medusa-payment-tw-storefront"
import { el, showMessage } from "../element"
import { sdk } from "../medusa"
import { hostedPaymentErrorMessage } from "../payment/hosted-errors"
import { cardName } from "../saved-cards"
import { storeErrorMessage } from "../store-error"
import { formatTaipeiTime } from "../taipei-time"
import type { AccountSection } from "./section"

/** How long the section waits for a binding's notification after the shopper came back from the binding page. */
const WAIT_FOR_BINDING_MS = 30_000
const POLL_MS = 1_500

const STATUS_LABELS: Record<SavedCard["status"], string> = {
  binding: "Being saved…",
  active: "Ready to pay",
  failed: "Not saved",
}

/**
 * "Saved cards": the customer's cards (last four digits, when added, Delete),
 * and "Add a card", which opens the payment service's binding page and comes
 * back here. The card is saved when the service's notification arrives, a
 * moment after the return: the list is read again until it has.
 */
export const savedCardsSection: AccountSection = {
  id: "saved-cards",
  title: "Saved cards",

  async render(container) {
    const error = el("p", { id: "saved-cards-error", class: "error", role: "alert", hidden: true })
    const list = el("div", { id: "saved-cards-list" })
    const add = el("button", { type: "button", id: "add-card", "data-testid": "add-card" }, "Add a card")
    add.addEventListener("click", () => {
      add.disabled = true
      showMessage(error, undefined)
      startCardBinding(sdk, { returnPath: "/account" })
        .then(({ checkoutUrl }) => location.assign(checkoutUrl))
        .catch((failure: unknown) => {
          showMessage(error, storeErrorMessage(failure))
          add.disabled = false
        })
    })
    container.replaceChildren(list, error, add)
    // The binding page sends the shopper back with ?payment_error=… when the card was refused.
    const query = new URLSearchParams(location.search)
    const refused = query.get("payment_error")
    if (refused) {
      showMessage(error, `Your card was not saved. ${hostedPaymentErrorMessage(refused)}`)
      history.replaceState(null, "", location.pathname)
    }
    await showCards(list, error)
  },
}

async function showCards(list: HTMLElement, error: HTMLElement, until = Date.now() + WAIT_FOR_BINDING_MS) {
  const cards = await listSavedCards(sdk)
  list.replaceChildren(cards.length ? table(cards, list, error) : el("p", { "data-testid": "no-saved-cards" }, "You have no saved cards. Save one to pay in one step next time."))
  if (cards.some((card) => card.status === "binding") && Date.now() < until) {
    setTimeout(() => void showCards(list, error, until).catch((failure: unknown) => showMessage(error, storeErrorMessage(failure))), POLL_MS)
  }
}

function table(cards: SavedCard[], list: HTMLElement, error: HTMLElement): HTMLElement {
  const head = ["Card", "Status", "Added", ""].map((name) => el("th", { scope: "col" }, name))
  const rows = cards.map((card) => {
    const remove = el("button", { type: "button", class: "secondary", "data-testid": "delete-card" }, "Delete")
    remove.addEventListener("click", () => {
      remove.disabled = true
      deleteSavedCard(sdk, card.id)
        .then(() => showCards(list, error))
        .catch((failure: unknown) => {
          showMessage(error, storeErrorMessage(failure))
          remove.disabled = false
        })
    })
    return el(
      "tr",
      { "data-testid": "saved-card-row", "data-card-id": card.id, "data-status": card.status },
      el("td", { "data-testid": "saved-card-name" }, cardName(card)),
      el("td", { "data-testid": "saved-card-status" }, card.status === "failed" && card.failure_reason ? `${STATUS_LABELS.failed}: ${card.failure_reason}` : STATUS_LABELS[card.status]),
      el("td", {}, formatTaipeiTime(card.bound_at ?? card.created_at)),
      el("td", {}, card.status === "binding" ? null : remove)
    )
  })
  return el("table", { class: "lines", id: "saved-cards", "data-testid": "saved-cards" }, el("caption", { class: "visually-hidden" }, "Your saved cards"), el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows))
}

import { cancelSubscription, retrieveSubscription, type Subscription, type SubscriptionPeriod } from "medusa-payment-tw-storefront"
import { currentCart } from "../cart"
import { loggedInCustomer, loginHref } from "../customer"
import { byId, el, showMessage } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { runPage, showCartCount } from "../page"
import { storeErrorMessage, storeErrorStatus } from "../store-error"
import { everyInterval, howLong } from "../subscription-plans"
import { orderPaymentLabel, ordersById, type SubscriptionOrder, subscribedItem } from "../subscription-orders"
import { cancellable, PERIOD_LABELS, periodsCharged, STATUS_LABELS } from "../subscriptions"
import { formatTaipeiTime } from "../taipei-time"

/** /account/subscriptions/:id: one of the customer's subscriptions, its periods with their orders, and Cancel. */

function facts(s: Subscription): [string, string, string][] {
  const rows: [string, string, string][] = [
    ["Amount", `${formatMoney(s.amount, s.currency_code)} ${everyInterval(s.interval_months)}, ${howLong({ interval_months: s.interval_months, periods: s.periods_total })}`, "amount"],
    ["Periods charged", periodsCharged(s), "periods-charged"],
    ["Next charge", s.next_charge_at ? formatTaipeiTime(s.next_charge_at) : "—", "next-charge"],
  ]
  if (s.start_date) {
    rows.push(["First charge", s.start_date, "start-date"])
  }
  if (s.card_last4) {
    rows.push(["Card", `•••• ${s.card_last4}`, "card"])
  }
  if (s.cancelled_at) {
    rows.push(["Cancelled", formatTaipeiTime(s.cancelled_at), "cancelled-at"])
  }
  if (s.cancel_reason) {
    rows.push(["Reason", s.cancel_reason, "cancel-reason"])
  }
  return rows
}

function orderCell(s: Subscription, period: SubscriptionPeriod, order: SubscriptionOrder | undefined) {
  if (!period.order_id) {
    return el("td", {}, "—")
  }
  const renewal = period.period > 1
  const label = order ? `#${order.display_id}` : "View order"
  return el(
    "td",
    {},
    el("a", { href: `/orders/${period.order_id}?subscription=${s.id}`, "data-testid": renewal ? "renewal-order-link" : "first-order-link", "data-order-id": period.order_id }, label),
    ` ${renewal ? "renewal order" : "first order"}`,
    order ? ` · ${orderPaymentLabel(order)}` : ""
  )
}

function periodRow(s: Subscription, period: SubscriptionPeriod, order: SubscriptionOrder | undefined) {
  return el(
    "tr",
    { "data-testid": "period-row", "data-period": String(period.period), "data-status": period.status },
    el("td", {}, String(period.period)),
    el("td", { "data-testid": "period-status" }, PERIOD_LABELS[period.status] + (period.attempts > 1 ? ` (${period.attempts} attempts)` : "")),
    el("td", {}, formatMoney(period.amount, s.currency_code)),
    el("td", {}, period.paid_at ? formatTaipeiTime(period.paid_at) : "—"),
    el("td", { "data-testid": "period-transaction" }, period.transaction_hid ?? "—"),
    orderCell(s, period, order)
  )
}

async function show(s: Subscription) {
  const periods = s.periods ?? []
  const orders = await ordersById([s.first_order_id, ...periods.map((p) => p.order_id)])
  byId("subscription-title").textContent = subscribedItem(orders.get(s.first_order_id ?? ""), s.plan?.title)
  const badge = byId("subscription-state")
  badge.textContent = STATUS_LABELS[s.status]
  badge.dataset.state = s.status
  byId("subscription-facts").replaceChildren(...facts(s).flatMap(([label, value, key]) => [el("dt", {}, label), el("dd", { "data-testid": key }, value)]))
  const rows = periods.map((period) => periodRow(s, period, period.order_id ? orders.get(period.order_id) : undefined))
  byId("periods").querySelector("tbody")!.replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: "6" }, "Nothing charged yet."))]))
  byId("cancel-section").hidden = !cancellable(s)
}

/** Cancel: the service is asked first; its refusal (a charge running right now, say) is shown and nothing changes. */
function listenForCancel(id: string) {
  const form = byId<HTMLFormElement>("cancel-form")
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const button = byId<HTMLButtonElement>("cancel-subscription")
    button.disabled = true
    showMessage(byId("cancel-error"), undefined)
    const reason = String(new FormData(form).get("reason") ?? "").trim()
    cancelSubscription(sdk, id, reason || undefined)
      .then(async (cancelled) => {
        await show(cancelled)
        showMessage(byId("cancel-done"), "Your subscription is cancelled. Nothing more will be charged.")
      })
      .catch((error: unknown) => showMessage(byId("cancel-error"), storeErrorMessage(error)))
      .finally(() => {
        button.disabled = false
      })
  })
}

runPage("subscription-status", async () => {
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "")
  const [customer, cart] = await Promise.all([loggedInCustomer(), currentCart()])
  showCartCount(cart)
  const status = byId("subscription-status")
  if (!customer) {
    status.replaceChildren(el("a", { href: loginHref(), id: "subscription-login" }, "Log in"), " to see your subscriptions.")
    return
  }
  let subscription: Subscription
  try {
    subscription = await retrieveSubscription(sdk, id)
  } catch (error) {
    if (storeErrorStatus(error) === 404) {
      status.replaceChildren("This subscription is not in your account. ", el("a", { href: "/account" }, "Your subscriptions"), ".")
      return
    }
    throw error
  }
  await show(subscription)
  listenForCancel(subscription.id)
  status.hidden = true
  byId("subscription").hidden = false
})

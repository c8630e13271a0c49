import { listSubscriptions } from "medusa-payment-tw-storefront"
import { el } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { everyInterval } from "../subscription-plans"
import { ordersById, subscribedItem } from "../subscription-orders"
import { periodsCharged, STATUS_LABELS } from "../subscriptions"
import { formatTaipeiTime } from "../taipei-time"
import type { AccountSection } from "./section"

/** "My subscriptions": each of the customer's subscriptions, with a link to its periods, orders and Cancel. */
export const subscriptionsSection: AccountSection = {
  id: "subscriptions",
  title: "My subscriptions",

  async render(container) {
    const { subscriptions } = await listSubscriptions(sdk, { limit: 100 })
    if (!subscriptions.length) {
      container.replaceChildren(el("p", { "data-testid": "no-subscriptions" }, "You have no subscriptions. Products offered as a subscription have a \"Subscribe\" button."))
      return
    }
    const firstOrders = await ordersById(subscriptions.map((s) => s.first_order_id))
    const head = ["Subscription", "Status", "Amount", "Next charge", "Periods charged"].map((name) => el("th", { scope: "col" }, name))
    const rows = subscriptions.map((s) =>
      el(
        "tr",
        { "data-testid": "subscription-row", "data-subscription-id": s.id, "data-status": s.status },
        el("td", {}, el("a", { href: `/account/subscriptions/${s.id}`, "data-testid": "subscription-link" }, subscribedItem(firstOrders.get(s.first_order_id ?? ""), s.plan_title))),
        el("td", { "data-testid": "subscription-status" }, STATUS_LABELS[s.status]),
        el("td", { "data-testid": "subscription-amount" }, `${formatMoney(s.amount, s.currency_code)} ${everyInterval(s.interval_months)}`),
        el("td", { "data-testid": "subscription-next-charge" }, s.next_charge_at ? formatTaipeiTime(s.next_charge_at) : "—"),
        el("td", { "data-testid": "subscription-periods" }, periodsCharged(s))
      )
    )
    container.replaceChildren(
      el("table", { class: "lines", id: "subscriptions", "data-testid": "subscriptions" }, el("caption", { class: "visually-hidden" }, "Your subscriptions"), el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows))
    )
  },
}

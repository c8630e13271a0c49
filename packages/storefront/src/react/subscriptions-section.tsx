"use client"
import { useCallback, useEffect, useState } from "react"
import { cancelSubscription, isCancellable, listSubscriptions, type Subscription } from "../core/subscriptions.js"
import { useBusyAction } from "./busy-action.js"
import { useTwPayment } from "./context.js"
import { ErrorMessage } from "./error-message.js"

export interface SubscriptionsSectionProps {
  /** How a date is shown (`next_charge_at`); the locale's date in Taipei by default. */
  formatDate?: (iso: string) => string
  className?: string
}

/** The account's subscriptions: each with its status, amount and next charge, and a cancel button while it can be cancelled. */
export function SubscriptionsSection({ formatDate, className }: SubscriptionsSectionProps) {
  const { sdk, headers, locale, text, classNames } = useTwPayment()
  const [subscriptions, setSubscriptions] = useState<Subscription[] | undefined>(undefined)
  const [loadError, setLoadError] = useState<unknown>(undefined)
  const { busy, error, run } = useBusyAction()
  const dateOf = formatDate ?? ((iso: string) => new Date(iso).toLocaleDateString(locale, { timeZone: "Asia/Taipei" }))

  const reload = useCallback(() => listSubscriptions(sdk, {}, headers).then(({ subscriptions: found }) => setSubscriptions(found), setLoadError), [sdk, headers])
  useEffect(() => {
    void reload()
  }, [reload])

  const cancel = (subscription: Subscription) =>
    void run(async () => {
      await cancelSubscription(sdk, subscription.id, undefined, headers)
      await reload()
    })

  return (
    <section className={className} data-testid="subscriptions-section" aria-busy={subscriptions === undefined || busy}>
      <h2 className={classNames.title}>{text("subscriptions_title")}</h2>
      {subscriptions === undefined && loadError === undefined ? <p role="status">{text("loading")}</p> : null}
      <ErrorMessage error={loadError} />
      {subscriptions?.length === 0 ? <p data-testid="subscriptions-empty">{text("subscriptions_empty")}</p> : null}
      {subscriptions?.length ? (
        <ul aria-live="polite">
          {subscriptions.map((subscription) => {
            const name = subscription.plan_title ?? subscription.id
            return (
              <li key={subscription.id} className={classNames.item} data-testid="subscription" data-status={subscription.status}>
                <span>{name}</span> <span data-testid="subscription-status">{text(`subscription_status_${subscription.status}`)}</span>{" "}
                <span>{text("subscription_amount", { amount: subscription.amount.toLocaleString("en-US") })}</span>
                {subscription.next_charge_at ? <span> {text("subscription_next_charge", { date: dateOf(subscription.next_charge_at) })}</span> : null}
                {isCancellable(subscription.status) ? (
                  <button type="button" className={classNames.secondaryButton} onClick={() => cancel(subscription)} disabled={busy}>
                    {text("subscription_cancel", { name })}
                  </button>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : null}
      <ErrorMessage error={error} />
    </section>
  )
}

import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, generateEntityId } from "@medusajs/framework/utils"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../src/modules/tw-payment-sweep"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../src/modules/tw-saved-card"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { pluginProviders } from "../../src/providers/plugin-providers"
import { DELIVERY_VERDICTS } from "../../src/shared/health-views"

/**
 * `medusa exec` of the admin's browser test: the part of a busy week the test's own shoppers did not live
 * through, written through the plugin's modules as its steps write it (and one refund row as core's would
 * stand after a crash between the service's call and its answer). The store runs with its reconciliation
 * off, so no job touches these rows before the page is read. PAYMENT_ID names a real payment of the store.
 */
export default async function seedPaymentsHistory({ container }: ExecArgs) {
  const paymentId = process.env.PAYMENT_ID
  if (!paymentId) {
    throw new Error("seed-payments-history: PAYMENT_ID is required")
  }
  const [hosted, embedded] = ["hosted-checkout", "embedded-card"].map((identifier) => pluginProviders(container).find((provider) => provider.identifier === identifier)!.key)
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const now = Date.now()
  const ago = (minutes: number) => new Date(now - minutes * 60_000)

  await sweep.tally({ provider_key: hosted, figure: "payment", key: "failed" })
  await sweep.tally({ provider_key: hosted, figure: "delivery", key: "notification:forged" })
  for (const verdict of DELIVERY_VERDICTS) {
    await sweep.tally({ provider_key: embedded, figure: "delivery", key: `webhook:${verdict}` })
  }
  // Orders the shopper's return, a webhook and the reconciliation placed, and a cvs order awaiting its code's payment.
  await sweep.recordOrderPlacement({ order_id: "order_seed_return", provider_key: hosted, path: "return", awaiting: false, paid_at: ago(6), placed_at: ago(5.9) }, false)
  await sweep.recordOrderPlacement({ order_id: "order_seed_webhook", provider_key: embedded, path: "delivery", awaiting: false, paid_at: ago(3), placed_at: ago(2.9) }, false)
  await sweep.recordOrderPlacement({ order_id: "order_seed_reconciled", provider_key: hosted, path: "reconciliation", awaiting: false, paid_at: ago(5), placed_at: ago(4) }, false)
  await sweep.recordOrderPlacement({ order_id: "order_seed_cvs", provider_key: hosted, path: "return", awaiting: true, paid_at: null, placed_at: ago(1) }, false)
  await sweep.recordRemittanceDue({
    provider_key: hosted,
    transaction_id: "seed_atm_transaction",
    transaction_hid: "P2026112900000042",
    amount: 1280,
    payment_method: "atm",
    session_id: null,
    reason: "paid after its session was replaced",
  })

  // A refund core recorded ten minutes ago that the service never got.
  await container.resolve(ContainerRegistrationKeys.PG_CONNECTION).raw(
    `insert into refund (id, amount, raw_amount, payment_id, created_at, updated_at) values (?, 300, '{"value":"300","precision":20}', ?, now() - interval '10 minutes', now() - interval '10 minutes')`,
    [generateEntityId(undefined, "ref"), paymentId]
  )

  const subscriptions = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const subscription = (status: "retrying" | "stopped" | "active") => ({
    status,
    customer_id: "cus_seed",
    provider_key: hosted,
    cart_id: `cart_seed_${status}`,
    kind: "monthly" as const,
    interval_months: 1,
    amount: 450,
  })
  const [, , renewing] = await subscriptions.createTwSubscriptions([subscription("retrying"), subscription("stopped"), subscription("active")])
  // Its second month paid at the service, its renewal order not placed (stock ran out, say).
  await subscriptions.createTwSubscriptionPeriods({ subscription_id: renewing.id, period: 2, status: "paid", amount: 450, paid_at: ago(20), order_id: null })

  await container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE).createTwSavedCardCharges({
    payment_session_id: "payses_seed",
    saved_card_id: "twcard_seed",
    service_order_id: "seed-charge-1",
    status: "unknown",
    amount: 640,
    code: "C026",
  })
}

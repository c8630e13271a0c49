import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { parseHostedCheckoutOptions, type ResolvedHostedCheckoutOptions } from "../providers/hosted-checkout/options"
import type { HostedSessionData } from "../providers/hosted-checkout/session-data"
import { applyPaymentAction } from "../workflows"

/** A page can be paid until it expires, plus 3-D Secure's 10 minutes and some slack. */
const PAGE_GRACE_MS = 20 * 60_000
/** A cvs/atm code may be reported paid a while after its deadline. */
const CODE_GRACE_MS = 24 * 3_600_000
/** Sessions older than this are never re-read (no code lives this long). */
const MAX_AGE_MS = 14 * 24 * 3_600_000

interface HostedProvider {
  /** `{identifier}_{id}`, as in the notification address. */
  key: string
  options: ResolvedHostedCheckoutOptions
}

/** The hosted-checkout providers registered in the payment module, with their options. */
export function hostedProviders(container: MedusaContainer): HostedProvider[] {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const payment = config.modules?.payment as { options?: { providers?: Array<{ resolve?: unknown; id: string; options?: unknown }> } } | undefined
  return (payment?.options?.providers ?? [])
    .filter((p) => typeof p.resolve === "string" && /providers\/hosted-checkout\/?$/.test(p.resolve))
    .map((p) => ({ key: `hosted-checkout_${p.id}`, options: parseHostedCheckoutOptions(p.options) }))
}

/** Whether a session could still change on the service's side. */
export function stillOpen(status: string, data: Partial<HostedSessionData>, createdAt: Date, now: number): boolean {
  if (now - createdAt.getTime() > MAX_AGE_MS || !data.transactionId) {
    return false
  }
  if (status === "pending_authorization") {
    const info = data.paymentInfo
    const deadline = typeof info === "object" && info && "expiredAt" in info ? Date.parse(String(info.expiredAt)) : Number.NaN
    return Number.isNaN(deadline) || now < deadline + CODE_GRACE_MS
  }
  const expires = Date.parse(data.expiresAt ?? "")
  return Number.isNaN(expires) || now < expires + PAGE_GRACE_MS
}

/**
 * Re-reads every unsettled session of the hosted-checkout providers and
 * applies what a notification would have: the provider builds the action from
 * a fresh read, exactly as for a notification, and `applyPaymentAction` runs
 * the same workflows. Recovers dropped notifications (the service tries 3 times
 * and never again) at a bounded request rate.
 */
export default async function reconcileHostedCheckout(container: MedusaContainer) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const now = Date.now()

  for (const provider of hostedProviders(container)) {
    const { enabled, maxPerRun, requestsPerSecond } = provider.options.reconciliation
    if (!enabled) {
      continue
    }
    const { data: sessions } = await query.graph({
      entity: "payment_session",
      fields: ["id", "status", "data", "created_at"],
      filters: {
        provider_id: `pp_${provider.key}`,
        status: ["pending", "requires_more", "pending_authorization"],
        created_at: { $gte: new Date(now - MAX_AGE_MS) },
      },
      pagination: { take: maxPerRun * 4, order: { created_at: "DESC" } },
    })
    const open = sessions
      .filter((s) => stillOpen(s.status, (s.data ?? {}) as Partial<HostedSessionData>, new Date(s.created_at), now))
      .slice(0, maxPerRun)

    let recovered = 0
    for (const [index, session] of open.entries()) {
      if (index > 0) {
        await sleep(1000 / requestsPerSecond)
      }
      const data = session.data as unknown as HostedSessionData
      // The same hint a notification carries; the provider re-reads the rest.
      const hint = {
        purpose: "charge",
        id: data.transactionId,
        transactionId: data.transactionId,
        transactionHid: data.transactionHid,
        merchantId: provider.options.merchantId,
        status: data.status ?? "initiated",
      }
      try {
        const result = await paymentModule.getWebhookActionAndData({
          provider: provider.key,
          payload: { data: hint, rawData: Buffer.from(JSON.stringify(hint)), headers: {} },
        })
        await applyPaymentAction(container, result, { coreActions: true })
        recovered += result.action === "captured" || result.action === "failed" || result.action === "pending_authorization" ? 1 : 0
      } catch (error) {
        logger.warn(`medusa-payment-tw: reconciling session ${session.id} failed: ${(error as Error).message}`)
      }
    }
    if (open.length) {
      logger.info(`medusa-payment-tw: reconciled ${open.length} open ${provider.key} session(s), ${recovered} with news`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile-hosted-checkout",
  schedule: "* * * * *",
}

/**
 * When a binding is over. The binding page is valid for 10 minutes from the
 * `/checkout-token` call (spec 4.4), and its token comes only by notification,
 * with no way to ask for it again: a binding whose notification did not come
 * by then (plus a minute for the notification on its way) has failed, even
 * though nothing told the store so.
 */
export const BINDING_PAGE_MS = 10 * 60_000
/** A notification sent just before the page's end is still taken when it arrives a little after. */
export const BINDING_DELIVERY_GRACE_MS = 60_000
export const BINDING_TIMED_OUT = "binding not completed in time"

interface BindingRow {
  status: string
  binding_expires_at: Date | string
  failure_reason?: string | null
}

export function bindingTimedOut(row: BindingRow, now = Date.now()): boolean {
  return row.status === "binding" && now > new Date(row.binding_expires_at).getTime() + BINDING_DELIVERY_GRACE_MS
}

/** Status and reason as the customer and the admin see them: a binding past its time is failed. */
export function visibleState(row: BindingRow, now = Date.now()): { status: string; failure_reason: string | null } {
  return bindingTimedOut(row, now) ? { status: "failed", failure_reason: BINDING_TIMED_OUT } : { status: row.status, failure_reason: row.failure_reason ?? null }
}

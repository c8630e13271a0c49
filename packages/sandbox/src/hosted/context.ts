import type { SandboxCore } from "../context"
import type { HostedNotifier } from "./notifications"
import type { HostedRecords } from "./records"

/** What the hosted handlers share. */
export interface HostedContext {
  core: SandboxCore
  records: HostedRecords
  notifier: HostedNotifier
}

/** Kinds of due work the hosted API schedules. */
export const JOBS = {
  sessionExpiry: "hosted.sessionExpiry",
  threeDsAbandon: "hosted.threeDsAbandon",
  codeExpiry: "hosted.codeExpiry",
  payout: "hosted.payout",
  remittance: "hosted.remittance",
  recurringCharge: "hosted.recurringCharge",
} as const

/** Durations the spec leaves open (sandbox choices, documented in the package README's "not shown" section). */
export const TIMINGS = {
  checkoutPageMs: 5 * 60_000,
  bindingPageMs: 10 * 60_000,
  threeDsAbandonMs: 10 * 60_000,
  cvsValidityMs: 3 * 24 * 60 * 60_000,
  atmValidityMs: 24 * 60 * 60_000,
  walletValidityMs: 30 * 60_000,
  payoutAfterMs: 7 * 24 * 60 * 60_000,
  remittanceWorkingDays: 3,
  recurringHourTaipei: 9,
  maxPeriodRetries: 3,
  /** Refunds are refused while the merchant's collected, not yet paid-out amount is below this. */
  minimumCollectedForRefund: 200,
} as const

/**
 * The payments health page's vocabulary and answer (GET /admin/tw-payments/health),
 * shared by the server and the admin. Medusa-free.
 */

export const HEALTH_WINDOWS = ["hour", "day", "week"] as const
export type HealthWindow = (typeof HEALTH_WINDOWS)[number]
export const WINDOW_MS: Record<HealthWindow, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 }

/** Who placed an order: the shopper's return (core's cart completion), a notification or webhook, or the reconciliation. */
export const PLACEMENT_PATHS = ["return", "delivery", "reconciliation"] as const
export type PlacementPath = (typeof PLACEMENT_PATHS)[number]

/** A hosted notification or a signed embedded webhook. */
export const DELIVERY_KINDS = ["notification", "webhook"] as const
export type DeliveryKind = (typeof DELIVERY_KINDS)[number]

/**
 * What became of a delivery: taken in (`accepted`), confirmed by the fresh read (`verified`), naming nothing
 * this store's read could find (`forged`), without a signature (`unsigned`), or with one that did not match
 * any configured secret (`signature_failed`).
 */
export const DELIVERY_VERDICTS = ["accepted", "verified", "forged", "unsigned", "signature_failed"] as const
export type DeliveryVerdict = (typeof DELIVERY_VERDICTS)[number]

/** The verdicts a kind can get: hosted notifications carry no signature, so they are never unsigned nor fail one. */
export const VERDICTS_OF: Record<DeliveryKind, readonly DeliveryVerdict[]> = {
  notification: ["accepted", "verified", "forged"],
  webhook: DELIVERY_VERDICTS,
}

export const PAYMENT_OUTCOMES = ["captured", "awaiting", "failed", "refunded"] as const
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number]

export const HEALTH_RULES = ["notifications_missing", "webhook_signatures_failing", "refunds_failing", "remittances_overdue", "saved_card_outcomes_open"] as const
export type HealthRule = (typeof HEALTH_RULES)[number]

export interface PlacementFigure {
  count: number
  /** 0..1 of the window's orders. */
  share: number
  /** Seconds from payment to order, when known. */
  p50: number | null
  p95: number | null
}

export interface HealthWarning {
  rule: HealthRule
  /** The number that tripped it (orders' share in %, failures, minutes, days). */
  figure: number
  /** The threshold it passed. */
  threshold: number
  startedAt: string
}

export interface HealthFigures {
  window: HealthWindow
  since: string
  payments: Record<PaymentOutcome, number>
  placements: Record<PlacementPath, PlacementFigure>
  deliveries: Record<DeliveryKind, Record<DeliveryVerdict, number>>
  money: {
    /** Refunds core recorded that the service has not confirmed (count, whole TWD). */
    refundsAwaiting: { count: number; amount: number }
    remittancesDue: { count: number; amount: number }
  }
  subscriptions: { retrying: number; exhausted: number; renewalsUnplaced: number }
  savedCards: { openCharges: number }
}

export interface HealthResponse {
  figures: HealthFigures
  warnings: HealthWarning[]
}

/** What to do about each warning, in the admin's two languages; `{figure}` and `{threshold}` are filled in. */
export const HEALTH_RULE_TEXTS: Record<HealthRule, { en: string; zhTW: string }> = {
  notifications_missing: {
    en: "{figure}% of the latest orders were placed by the reconciliation (more than {threshold}%): notifications are not reaching /hooks/payment/…. Check the address registered at the service and your proxy.",
    zhTW: "最近的訂單有 {figure}% 由對帳建立（超過 {threshold}%）：付款通知沒有送達 /hooks/payment/…。請檢查在金流服務登記的網址與您的代理伺服器。",
  },
  webhook_signatures_failing: {
    en: "{figure} webhooks failed their signature check (threshold {threshold}): the webhook secret was rotated at the service but not in the store. Put the new secret in the embedded-card provider's webhookSecrets.",
    zhTW: "有 {figure} 個 webhook 簽章驗證失敗（門檻 {threshold}）：金流服務已更換 webhook 密鑰，但商店尚未更新。請將新密鑰加入 embedded-card 的 webhookSecrets。",
  },
  refunds_failing: {
    en: "A refund has waited {figure} minutes for the service (more than {threshold}): check the order's payment and refund again from the admin if the service shows none.",
    zhTW: "有一筆退款已等待金流服務 {figure} 分鐘（超過 {threshold} 分鐘）：請查看該訂單的付款，若金流服務沒有紀錄，請從後台再退款一次。",
  },
  remittances_overdue: {
    en: "cvs/atm money has been due for remittance for {figure} days (more than {threshold}): ask the shoppers for a bank account and refund it from the Remittances page.",
    zhTW: "超商代碼／ATM 款項已待匯款退還 {figure} 天（超過 {threshold} 天）：請向顧客索取銀行帳號，並在「匯款退款」頁面退款。",
  },
  saved_card_outcomes_open: {
    en: "A saved-card charge has had no known outcome for {figure} minutes (more than {threshold}): check that the reconciliation job runs and that the service is reachable.",
    zhTW: "有一筆綁定卡扣款已 {figure} 分鐘沒有結果（超過 {threshold} 分鐘）：請確認對帳排程正在執行，且金流服務可以連線。",
  },
}

/** A rule's what-to-do text with its numbers filled in. */
export function healthRuleText(warning: Pick<HealthWarning, "rule" | "figure" | "threshold">, language: "en" | "zhTW"): string {
  return HEALTH_RULE_TEXTS[warning.rule][language].replace("{figure}", String(warning.figure)).replace("{threshold}", String(warning.threshold))
}

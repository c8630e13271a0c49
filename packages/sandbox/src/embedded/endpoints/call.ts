import type { EmbeddedAccount, KeyKind } from "../keys"

/** One authenticated API request as an endpoint handler sees it. */
export interface EmbeddedCall {
  account: EmbeddedAccount
  merchantId: string
  keyKind: KeyKind
  params: Record<string, string>
  query: URLSearchParams
  rawBody: Buffer
  /** The checkout page's origin for SDK calls (already checked against the allowed domains). */
  checkoutOrigin: string | null
}

/** What a handler answers with; errors are thrown as `ApiError`. */
export interface HandlerResult {
  data: unknown
}

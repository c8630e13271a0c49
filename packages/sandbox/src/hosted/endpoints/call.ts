import type { Merchant } from "../../merchants"

/** One authenticated hosted API call as an endpoint handler sees it. */
export interface HostedCall {
  merchant: Merchant
  /** `METHOD /template`, e.g. `POST /token/transactions` (fault matching). */
  endpoint: string
  params: Record<string, string>
  query: URLSearchParams
  /** Parsed JSON body of POST and PUT; undefined for GET. */
  body: unknown
}

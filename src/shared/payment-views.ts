/** What `GET /admin/tw-payments/:payment_id` answers about a hosted-checkout payment (docs/providers.md). */

/** The convenience-store code or the ATM virtual account the service issued (a string when it sent only text). */
export type PaymentInfoView = string | { code: string; cvsName: string; expiredAt: string } | { bankCode: string; bankName: string; account: string; expiredAt: string }

/** The shopper's e-invoice choice; personal carriers come masked, a company's tax id in full (it is public). */
export interface InvoiceView {
  invoice_type: "cloud" | "company"
  /** "Member carrier", "Mobile barcode", "Citizen digital certificate", "Company (tax id)". */
  label: string
  carrier?: string
  tax_id?: string
  company_name?: string
}

export interface TwPaymentView {
  id: string
  transaction_hid?: string
  /** The service's transaction status, as last read. */
  status?: string
  payment_method?: string
  payment_info?: PaymentInfoView
  paid_at?: string
  /** The one refund the service allows, once made. */
  refund: { amount: number; status: string; at: string } | null
  /** A paid cvs/atm payment not refunded yet: its refund needs the shopper's bank account. */
  needs_remittance: boolean
  /** The account on file, masked to its last four characters. */
  remittance: { bank_name: string; account: string } | null
  invoice: InvoiceView | null
}

export interface TwPaymentResponse {
  payment: TwPaymentView
}

/** The body of `POST /admin/tw-payments/:payment_id/remittance`. */
export interface RemittanceFields {
  bankCode: string
  bankName: string
  branchCode: string
  branchName: string
  account: string
  accountName: string
}

/** A row of `GET /admin/tw-remittances`: money only a remittance to the shopper's account can return. */
export interface RemittanceDueView {
  id: string
  provider_key: string
  transaction_id: string
  transaction_hid: string
  amount: number
  payment_method: string
  session_id: string | null
  reason: string
  refunded_at: string | null
  created_at: string
}

export interface RemittanceListResponse {
  remittances: RemittanceDueView[]
  count: number
  limit: number
  offset: number
}

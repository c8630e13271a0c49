import type { Persistable } from "../state"
import type { FailureCode, StoredCard } from "./test-cards"

/** The hosted API's own records, all plain data so they can be saved. */

export type TransactionStatus =
  | "initiated"
  | "charging"
  | "charged"
  | "claimed"
  | "authorized"
  | "failed"
  | "refunding"
  | "refunded"
  | "refundedPostPayout"
  | "cancelled"

export type ScheduleStatus = "pending" | "trialing" | "active" | "retrying" | "error" | "cancelled" | "completed"

export type PaymentMethod = "card" | "applePay" | "linePay" | "cvs" | "atm"

export interface ProductDetail {
  productionCode: string
  description: string
  quantity: number
  unit: string
  unitPrice: number
}

export interface CvsPaymentInfo {
  cvsName: string
  code: string
  expiredAt: string
}

export interface AtmPaymentInfo {
  bankName: string
  bankCode: string
  account: string
  expiredAt: string
}

export interface InvoiceInfo {
  invoiceType: "cloud" | "company"
  carrierType?: string
  carrierId?: string
  buyerIdentifier?: string
  buyerName?: string
  email?: string
}

export interface RemitInfo {
  bankCode: string
  bankName: string
  branchCode: string
  branchName: string
  account: string
  accountName: string
}

export interface RefundRecord {
  id: string
  amount: number
  status: "refunding" | "refunded" | "cancelled"
  reason?: string
  requestedAt: string
  resolvedAt?: string
  remitInfo?: RemitInfo
  /** The invoice allowance lines (`productDetails`) of a refund of an invoiced transaction. */
  allowance?: ProductDetail[]
}

/** Fields the create endpoints share (spec 2.3) as stored. */
export interface OrderFields {
  orderId: string
  amount: number
  productDetails: ProductDetail[]
  description: string
  userId?: string
  userName?: string
  userEmail?: string
  userPhone?: string
  customId?: string
  note?: string
  invoiceInfo?: InvoiceInfo
  /** The merchant had e-invoice activated when the record was created. */
  invoiced: boolean
}

export interface HostedTransaction extends OrderFields {
  seq: number
  id: string
  hid: string
  merchantId: string
  /** Which endpoint or job created it. */
  origin: "checkout" | "subscription" | "schedule" | "tokenCharge" | "tokenSubscription" | "recurring"
  action: "onetime" | "subscription"
  status: TransactionStatus
  expectedPayoutDate?: string
  paymentMethod?: PaymentMethod
  paymentInfo?: string | CvsPaymentInfo | AtmPaymentInfo
  authCode?: string
  failureCode?: FailureCode
  message?: string
  /** The card paid with (test numbers only), for refund behaviour. */
  card?: StoredCard
  subscriptionHid?: string
  period?: number
  numberOfPeriods?: number
  isRetry?: boolean
  createdAt: string
  paidAt?: string
  /** When the money went to the merchant; card refunds after it are `refundedPostPayout`. */
  paidOutAt?: string
  refund?: RefundRecord
}

export type SessionKind = "checkout" | "subscription" | "schedule" | "binding"

/** A hosted page opened by a create call; its id is the 27-character id the call returned. */
export interface CheckoutSession {
  id: string
  merchantId: string
  kind: SessionKind
  createdAt: string
  expiresAt: string
  successUrl: string | null
  failureUrl: string | null
  use3d: boolean
  allowedPaymentMethods: PaymentMethod[]
  /** open: form shown; threeDs: challenge running; awaiting: code issued; then a final state. */
  state: "open" | "threeDs" | "awaiting" | "succeeded" | "failed" | "expired"
  transactionId?: string
  subscriptionHid?: string
  amount?: number
  description?: string
  customId?: string
  payerEmail?: string
  threeDsStartedAt?: string
  /** The card waiting for its 3-D Secure challenge. */
  pendingCard?: StoredCard
  /** `payment_error` of a failed page, for the result page. */
  paymentError?: string
}

export interface HostedSubscription extends OrderFields {
  seq: number
  hid: string
  merchantId: string
  origin: "subscription" | "schedule" | "token"
  status: ScheduleStatus
  numberOfPeriods?: number
  paymentInterval: number
  /** Taipei date of the first period; later periods fall on it plus whole intervals. */
  anchorDate?: string
  /** Periods charged so far. */
  period: number
  /** Retries used on the current period. */
  retryAttempt: number
  card?: StoredCard
  nextChargeAt?: string
  startedAt?: string
  cancelledAt?: string
  reason?: string
  createdAt: string
  sessionId?: string
}

export interface CardTokenRecord {
  token: string
  merchantId: string
  card: StoredCard
  bindingId: string
  createdAt: string
}

interface HostedData {
  seq: number
  transactions: Record<string, HostedTransaction>
  sessions: Record<string, CheckoutSession>
  subscriptions: Record<string, HostedSubscription>
  tokens: Record<string, CardTokenRecord>
}

function empty(): HostedData {
  return { seq: 0, transactions: {}, sessions: {}, subscriptions: {}, tokens: {} }
}

/** In-memory tables with the lookups the handlers need. */
export class HostedRecords implements Persistable {
  readonly name = "hosted"
  private data = empty()
  private byHid = new Map<string, string>()

  nextSeq(): number {
    return ++this.data.seq
  }

  addTransaction(tx: HostedTransaction): void {
    this.data.transactions[tx.id] = tx
    this.byHid.set(tx.hid, tx.id)
  }

  transaction(id: string): HostedTransaction | undefined {
    return this.data.transactions[id]
  }

  transactionByHid(hid: string): HostedTransaction | undefined {
    const id = this.byHid.get(hid)
    return id ? this.data.transactions[id] : undefined
  }

  transactions(merchantId?: string): HostedTransaction[] {
    return Object.values(this.data.transactions)
      .filter((t) => !merchantId || t.merchantId === merchantId)
      .sort((a, b) => a.seq - b.seq)
  }

  addSession(session: CheckoutSession): void {
    this.data.sessions[session.id] = session
  }

  session(id: string): CheckoutSession | undefined {
    return this.data.sessions[id]
  }

  sessions(): CheckoutSession[] {
    return Object.values(this.data.sessions)
  }

  addSubscription(sub: HostedSubscription): void {
    this.data.subscriptions[sub.hid] = sub
  }

  subscription(hid: string): HostedSubscription | undefined {
    return this.data.subscriptions[hid]
  }

  subscriptions(merchantId?: string): HostedSubscription[] {
    return Object.values(this.data.subscriptions)
      .filter((s) => !merchantId || s.merchantId === merchantId)
      .sort((a, b) => a.seq - b.seq)
  }

  addToken(record: CardTokenRecord): void {
    this.data.tokens[record.token] = record
  }

  token(token: string): CardTokenRecord | undefined {
    return this.data.tokens[token]
  }

  dump(): unknown {
    return this.data
  }

  load(data: unknown): void {
    this.data = { ...empty(), ...(data as Partial<HostedData>) }
    this.byHid = new Map(Object.values(this.data.transactions).map((t) => [t.hid, t.id]))
  }

  reset(): void {
    this.data = empty()
    this.byHid = new Map()
  }
}

import type { InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { z } from "zod"
import type { Transaction } from "../../../lib/hosted"
import type { Attestor } from "../../core/attestation"
import { SHOPPER_ERROR } from "../../core/shopper-error-codes"
import type { HostedDeps } from "../provider-deps"
import { freshSessionData, type HostedSessionData, type StorefrontData } from "../hosted-checkout-session-data"
import { PAID } from "../hosted-checkout-status-map"
import { openSealedTerms, type Sealed, sealTerms } from "../sealed-terms"

/**
 * A paid transaction whose session is gone, recorded on the order that
 * awaited it (the event pipeline's `adopt` decision): a code paid after its
 * session was deleted anyway, by a race or by an older version of the
 * plugin. The session opened for it holds the transaction as it is, sealed
 * from the pipeline's fresh read, and keeps the dropped session's id as its
 * `customId`, which the transaction carries; nothing is created at the service.
 */

/** Context key of an adopted payment's terms. */
export const ADOPTED_CONTEXT_KEY = "tw_adopted"
const KIND = "tw-adopted"

export const adoptedTermsSchema = z.strictObject({
  transaction_id: z.string().min(1),
  transaction_hid: z.string().min(1),
  amount: z.int().min(1),
  /** The dropped session: the transaction's `customId`. */
  custom_id: z.string().startsWith("payses_"),
  status: z.string().min(1),
  payment_method: z.string().nullable(),
  paid_at: z.string().nullable(),
})
export type AdoptedTerms = z.output<typeof adoptedTermsSchema>

/** The pipeline's read of the transaction, sealed for the new session's context. */
export function sealAdoptedTerms(attestor: Attestor, tx: Pick<Transaction, "id" | "transactionHid" | "amount" | "status" | "paymentMethod" | "paidAt">, droppedSessionId: string): Sealed<AdoptedTerms> {
  const terms = {
    transaction_id: tx.id,
    transaction_hid: tx.transactionHid,
    amount: tx.amount,
    custom_id: droppedSessionId,
    status: tx.status,
    payment_method: tx.paymentMethod ?? null,
    paid_at: tx.paidAt ?? null,
  }
  return sealTerms(attestor, KIND, droppedSessionId, terms)
}

export const openAdoptedTerms = (attestor: Attestor, context: Record<string, unknown> | undefined) =>
  openSealedTerms(attestor, context?.[ADOPTED_CONTEXT_KEY], adoptedTermsSchema, KIND, (terms) => terms.custom_id, {
    malformed: "The adopted payment's terms are malformed.",
    unsealed: "The adopted payment's terms are not sealed by this store (or expired).",
    code: SHOPPER_ERROR.payment_session_invalid,
  })

export function initiateAdopted({ attestor }: Pick<HostedDeps, "attestor">, amount: number, input: StorefrontData, terms: AdoptedTerms): InitiatePaymentOutput {
  if (terms.amount !== amount || !PAID.has(terms.status as Transaction["status"])) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Transaction ${terms.transaction_hid} (${terms.amount} TWD, ${terms.status}) cannot pay ${amount} TWD.`)
  }
  const sessionId = input.session_id
  const data: HostedSessionData = {
    ...freshSessionData,
    session_id: sessionId,
    transactionId: terms.transaction_id,
    transactionHid: terms.transaction_hid,
    checkoutUrl: "",
    expiresAt: "",
    amount,
    status: terms.status as HostedSessionData["status"],
    paymentMethod: (terms.payment_method ?? undefined) as HostedSessionData["paymentMethod"],
    paidAt: terms.paid_at ?? undefined,
    customId: terms.custom_id,
    attestation: attestor.seal({ sessionId, serviceId: terms.transaction_id, amount, status: terms.status }),
  }
  return { id: terms.transaction_id, status: PaymentSessionStatus.PENDING, data: { ...data } }
}

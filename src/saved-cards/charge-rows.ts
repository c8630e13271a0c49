import type { InferTypeOf, MedusaContainer, PaymentSessionDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../modules/tw-saved-card"
import type TwSavedCardCharge from "../modules/tw-saved-card/models/saved-card-charge"
import type { ChargeFacts } from "../workflows/saved-cards/decisions/charge-decision"

/** A charge record, as the saved-cards module stores it. */
export type ChargeRow = InferTypeOf<typeof TwSavedCardCharge>

export const savedCardModule = (container: MedusaContainer) => container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)

/** The provider key of a payment provider id (`pp_hosted-checkout_x` → `hosted-checkout_x`). */
export const providerKeyOf = (providerId: string) => providerId.replace(/^pp_/, "")

/**
 * The lock of one session's charge: the completion's charge and the
 * reconciliation's settling take turns on it, so neither undoes what the
 * other wrote.
 */
export const savedCardChargeLockKey = (paymentSessionId: string) => `medusa-payment-tw:saved-card-charge:${paymentSessionId}`

/** A row's facts as the decisions read them (plain values: they travel between steps). */
export function chargeFacts(row: Pick<ChargeRow, "id" | "status" | "code" | "transaction_id" | "service_order_id" | "amount" | "created_at">): ChargeFacts {
  return {
    id: row.id,
    status: row.status,
    code: row.code ?? null,
    transaction_id: row.transaction_id ?? null,
    service_order_id: row.service_order_id,
    amount: row.amount,
    created_at: new Date(row.created_at).toISOString(),
  }
}

/** A payment session as a charge needs it; undefined when it is gone. */
export async function loadSession(container: MedusaContainer, sessionId: string): Promise<PaymentSessionDTO | undefined> {
  return container
    .resolve(Modules.PAYMENT)
    .retrievePaymentSession(sessionId, { select: ["id", "provider_id", "payment_collection_id", "amount", "currency_code", "status", "data", "context"] })
    .catch(() => undefined)
}

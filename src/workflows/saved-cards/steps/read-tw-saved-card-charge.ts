import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import type { ChargeFacts, ChargeRead } from "../decisions/charge-decision"

/**
 * `GET /order/{orderId}/transactions` for a charge: what the service shows
 * under its `orderId`, this merchant's and of the charge's amount only. A read
 * that fails is an answer too (the outcome stays open). Never sends anything.
 */
export const readSavedCardChargeStep = createStep("read-tw-saved-card-charge", async ({ provider_key, row }: { provider_key: string; row: ChargeFacts }, { container }) => {
  const api = hostedApi(container, provider_key)
  try {
    const transactions = (await api.client.transactions.listByOrder(row.service_order_id))
      .filter((tx) => tx.merchantId === api.options.merchantId && (tx.customId ?? tx.orderId) === row.service_order_id && tx.amount === row.amount)
      .map((tx) => ({ ...tx }))
    return new StepResponse<ChargeRead>({ ok: true, transactions })
  } catch (error) {
    return new StepResponse<ChargeRead>({ ok: false, error: (error as Error).message })
  }
})

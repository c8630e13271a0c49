import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"

/** The money due for remittance the merchant is refunding; refused when it is unknown or refunded already. Only reads. */
export const loadRemittanceDueStep = createStep("load-tw-remittance-due", async ({ id }: { id: string }, { container }) => {
  const [row] = await container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE).listTwRemittanceDues({ id }, { take: 1 })
  if (!row) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No money due for remittance with id ${id}.`)
  }
  if (row.refunded_at) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `${row.amount} TWD of ${row.transaction_hid} was already refunded.`)
  }
  return new StepResponse({ id: row.id, providerKey: row.provider_key, transactionId: row.transaction_id })
})

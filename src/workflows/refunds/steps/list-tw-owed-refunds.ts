import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type OrderPayments, OWED_REFUND_FIELDS, owedRefunds } from "../decisions/owed-refunds"

export const listOwedRefundsStep = createStep("list-tw-owed-refunds", async (orderId: string, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: OWED_REFUND_FIELDS, filters: { id: orderId } })
  return new StepResponse(owedRefunds(data[0] as OrderPayments | undefined))
})

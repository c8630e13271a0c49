import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export const ensureVariantStep = createStep("ensure-tw-plan-variant", async (variantId: string, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "product_variant", fields: ["id"], filters: { id: variantId } })
  if (!data[0]) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Product variant ${variantId} was not found.`)
  }
  return new StepResponse(undefined)
})

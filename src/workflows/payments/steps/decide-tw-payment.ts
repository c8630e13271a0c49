import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import { type CartOrderState, decide, type SessionState } from "../decisions/payment-decision"
import { pluginProvider } from "../../../providers/plugin-providers"

export interface DecidePaymentInput {
  provider: string
  observation: PaymentObservation | null
  session: SessionState | null
  cartOrder: CartOrderState | null
}

/** Decides what the read means for the store (see `decide`) and says so in the log when it is nothing. */
export const decidePaymentStep = createStep("decide-tw-payment", async (input: DecidePaymentInput, { container }) => {
  const api = pluginProvider(container, input.provider)?.api
  const decision = decide(input.observation ?? undefined, input.session ?? undefined, api?.idField ?? "", input.cartOrder ?? undefined)
  if (decision.kind === "ignore") {
    container.resolve(ContainerRegistrationKeys.LOGGER)[decision.level](`${input.provider}: nothing done: ${decision.reason}`)
  } else if (decision.kind === "apply" && decision.notice) {
    container.resolve(ContainerRegistrationKeys.LOGGER).error(`${input.provider}: ${decision.notice}`)
  }
  return new StepResponse(decision)
})

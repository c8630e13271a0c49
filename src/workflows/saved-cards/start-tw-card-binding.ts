import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createBindingCardStep } from "./steps/create-tw-saved-card"
import { linkSavedCardCustomerStep } from "./steps/link-tw-saved-card-customer"
import { markBindingFailedStep } from "./steps/mark-tw-card-binding-failed"
import { openBindingPageStep } from "./steps/open-tw-card-binding-page"
import { prepareCardBindingStep, type StartTwCardBindingInput } from "./steps/prepare-tw-card-binding"
import { recordBindingPageStep } from "./steps/record-tw-card-binding-page"

export { DEFAULT_BINDING_RETURN_PATH, type StartTwCardBindingInput } from "./steps/prepare-tw-card-binding"
export const startTwCardBindingWorkflowId = "start-tw-card-binding"

/**
 * `POST /store/customers/me/tw-saved-cards`: a card's row (`binding`) and its
 * link to the customer, then the service's binding page, whose id and end
 * the row records; the card becomes active when the `token` notification
 * arrives (`bind-tw-card`). A page the service did not open is an answer,
 * not a failure: the card is recorded failed with the reason, and the
 * workflow's `error` is what the route answers. A step that fails undoes the
 * others: no card, no link.
 */
export const startTwCardBindingWorkflow = createWorkflow(startTwCardBindingWorkflowId, (input: StartTwCardBindingInput) => {
  const target = prepareCardBindingStep(input)
  const cardId = createBindingCardStep(transform({ target }, ({ target }) => ({ customer_id: target.customer_id, provider_id: target.provider_id })))
  linkSavedCardCustomerStep(transform({ target, cardId }, ({ target, cardId }) => ({ customer_id: target.customer_id, saved_card_id: cardId })))
  const page = openBindingPageStep(transform({ target, cardId }, ({ target, cardId }) => ({ target, saved_card_id: cardId })))

  const card = when("tw-record-card-binding-page", { page }, ({ page }) => page.opened).then(() =>
    recordBindingPageStep(
      transform({ cardId, page }, ({ cardId, page }) => ({ saved_card_id: cardId, binding_id: page.opened ? page.binding_id : "", expires_at: page.opened ? page.expires_at : "" }))
    )
  )
  when("tw-fail-card-binding-page", { page }, ({ page }) => !page.opened).then(() => {
    markBindingFailedStep(transform({ cardId, page }, ({ cardId, page }) => ({ card_id: cardId, failure_reason: page.opened ? "" : page.reason }))).config({
      name: "fail-tw-card-binding-page",
    })
  })

  const result = transform({ card, page }, ({ card, page }) => ({
    saved_card: card ?? null,
    checkout_url: page.opened ? page.url : null,
    error: page.opened ? null : page.error,
  }))
  return new WorkflowResponse(result)
})

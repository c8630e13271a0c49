import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { settleFromRead } from "./decisions/charge-decision"
import { savedCardChargeLockKey } from "../../saved-cards/charge-rows"
import { type ChargeToSettle, loadChargeToSettleStep, type SettleTwSavedCardChargeInput } from "./steps/load-tw-saved-card-charge-to-settle"
import { placeChargeOrderStep } from "./steps/place-tw-saved-card-charge-order"
import { readSavedCardChargeStep } from "./steps/read-tw-saved-card-charge"
import { recordChargeInSessionStep } from "./steps/record-tw-saved-card-charge-in-session"
import { updateChargeRowStep } from "./steps/update-tw-saved-card-charge"

export type { SettleTwSavedCardChargeInput } from "./steps/load-tw-saved-card-charge-to-settle"
export const settleTwSavedCardChargeWorkflowId = "settle-tw-saved-card-charge"

type Open = Extract<ChargeToSettle, { settle: true }>
const openOf = (loaded: ChargeToSettle): Open | null => (loaded.settle ? loaded : null)

/**
 * One saved-card charge whose outcome the store does not know (a time-out, a
 * 5xx or `C026` the completion's own read did not settle, or a charge cut off
 * by a crash), read by its `orderId`, never sent again. Under the charge's
 * lock (the completion's charge takes it too): the read, then a paid charge
 * written into its session (sealed) and the row settled; after the lock, a
 * paid charge goes through the payment pipeline: the order, or a refund when
 * the session or the cart has moved on. A failed one is a decline; one the
 * service does not show stays open: time alone never declares a charge not
 * made. A failing step before the pipeline puts the session and the row back
 * as they were, so the next run reads again. The reconciliation job runs it
 * once per open charge (settle-saved-card-charges.ts).
 */
export const settleTwSavedCardChargeWorkflow = createWorkflow(settleTwSavedCardChargeWorkflowId, (input: SettleTwSavedCardChargeInput) => {
  const lockKey = transform({ input }, ({ input }) => savedCardChargeLockKey(input.payment_session_id))
  acquireLockStep({ key: lockKey, timeout: 30, ttl: 120 })
  const loaded = loadChargeToSettleStep(input)

  const read = when("tw-read-charge-to-settle", { loaded }, ({ loaded }) => loaded.settle).then(() =>
    readSavedCardChargeStep(transform({ loaded }, ({ loaded }) => ({ provider_key: openOf(loaded)!.provider_key, row: openOf(loaded)!.row })))
  )
  const settlement = transform({ loaded, read }, ({ loaded, read }) => {
    const open = openOf(loaded)
    return open && read ? settleFromRead(open.card, open.row, read, { schedule: open.schedule, hid: null, now: open.now }) : null
  })
  when("tw-record-settled-charge-in-session", { settlement }, ({ settlement }) => !!settlement?.charge).then(() => {
    recordChargeInSessionStep(
      transform({ loaded, settlement }, ({ loaded, settlement }) => ({
        session_id: openOf(loaded)!.session_id,
        provider_key: openOf(loaded)!.provider_key,
        record: { kind: "charge" as const, ...settlement!.charge! },
      }))
    )
  })
  when("tw-record-settled-charge", { settlement }, ({ settlement }) => !!settlement?.change || !!settlement?.alert).then(() => {
    updateChargeRowStep(transform({ loaded, settlement }, ({ loaded, settlement }) => ({ id: openOf(loaded)!.row.id, change: settlement!.change, alert: settlement!.alert }))).config({
      name: "record-tw-saved-card-charge-settled",
    })
  })
  releaseLockStep({ key: lockKey })

  const pipeline = when("tw-place-settled-charge-order", { settlement }, ({ settlement }) => settlement?.outcome.status === "paid" && !!settlement.charge).then(() =>
    placeChargeOrderStep(
      transform({ loaded, settlement }, ({ loaded, settlement }) => ({
        charge_id: openOf(loaded)!.row.id,
        session_id: openOf(loaded)!.session_id,
        provider_key: openOf(loaded)!.provider_key,
        service_id: settlement!.charge!.transaction.id,
      }))
    )
  )
  const result = transform({ loaded, settlement, pipeline }, ({ loaded, settlement, pipeline }) => {
    const open = openOf(loaded)
    return {
      status: open && settlement ? settlement.outcome.status : ("skipped" as const),
      provider_key: open?.provider_key ?? null,
      saved_card_id: open?.card.id ?? null,
      pipeline: pipeline ?? null,
    }
  })
  return new WorkflowResponse(result)
})

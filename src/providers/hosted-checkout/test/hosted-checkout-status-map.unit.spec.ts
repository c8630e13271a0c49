import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import { TRANSACTION_STATUSES } from "../../../lib/hosted"
import { PAID, SESSION_STATUS, WEBHOOK_ACTION } from "../hosted-checkout-status-map"

describe("hosted-checkout status mapping (ARCHITECTURE decision 5)", () => {
  it.each([
    ["initiated", PaymentSessionStatus.REQUIRES_MORE, PaymentActions.REQUIRES_MORE],
    ["charging", PaymentSessionStatus.PENDING_AUTHORIZATION, PaymentActions.PENDING_AUTHORIZATION],
    ["charged", PaymentSessionStatus.CAPTURED, PaymentActions.SUCCESSFUL],
    ["claimed", PaymentSessionStatus.CAPTURED, PaymentActions.SUCCESSFUL],
    ["authorized", PaymentSessionStatus.AUTHORIZED, PaymentActions.AUTHORIZED],
    ["failed", PaymentSessionStatus.ERROR, PaymentActions.FAILED],
    ["refunding", PaymentSessionStatus.CANCELED, PaymentActions.NOT_SUPPORTED],
    ["refunded", PaymentSessionStatus.CANCELED, PaymentActions.NOT_SUPPORTED],
    ["refundedPostPayout", PaymentSessionStatus.CANCELED, PaymentActions.NOT_SUPPORTED],
    ["cancelled", PaymentSessionStatus.CANCELED, PaymentActions.CANCELED],
  ] as const)("%s -> session %s, webhook action %s", (status, session, action) => {
    expect(SESSION_STATUS[status]).toBe(session)
    expect(WEBHOOK_ACTION[status]).toBe(action)
  })

  it("covers every status of spec 3.1, and nothing else", () => {
    expect(Object.keys(SESSION_STATUS).sort()).toEqual([...TRANSACTION_STATUSES].sort())
    expect(Object.keys(WEBHOOK_ACTION).sort()).toEqual([...TRANSACTION_STATUSES].sort())
  })

  it("treats exactly charged and claimed as paid", () => {
    expect([...PAID].sort()).toEqual(["charged", "claimed"])
  })
})

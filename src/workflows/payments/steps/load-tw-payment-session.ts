import type { BigNumberInput } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toTwd } from "../../../providers/core/money"
import type { SessionState } from "../decisions/payment-decision"

const PAID_SESSION = new Set(["authorized", "captured"])

interface Row {
  id: string
  amount: unknown
  currency_code: string
  status: string
  data: Record<string, unknown> | null
  payment_collection_id: string
  payment_collection?: {
    payment_sessions?: Array<{ id: string; status: string } | null>
    payments?: Array<{ id: string; payment_session_id?: string | null; canceled_at?: unknown } | null>
  } | null
}

/** The session a read claims, with its collection, cart and order, through `query`. Null when it is gone. */
export const loadPaymentSessionStep = createStep(
  "load-tw-payment-session",
  async ({ sessionId }: { sessionId: string | null }, { container }) => {
    if (!sessionId?.startsWith("payses_")) {
      return new StepResponse(null)
    }
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: sessions } = await query.graph({
      entity: "payment_session",
      fields: [
        "id",
        "amount",
        "currency_code",
        "status",
        "data",
        "payment_collection_id",
        "payment_collection.payment_sessions.id",
        "payment_collection.payment_sessions.status",
        "payment_collection.payments.id",
        "payment_collection.payments.payment_session_id",
        "payment_collection.payments.canceled_at",
      ],
      filters: { id: sessionId },
    })
    const row = sessions[0] as Row | undefined
    if (!row) {
      return new StepResponse(null)
    }
    const { data: carts } = await query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: row.payment_collection_id } })
    const cartId: string | undefined = carts[0]?.cart_id
    const { data: orderLinks } = cartId ? await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } }) : { data: [] }
    const orderId: string | undefined = orderLinks[0]?.order_id
    const { data: orders } = orderId ? await query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } }) : { data: [] }

    const payments = (row.payment_collection?.payments ?? []).filter((p) => !!p)
    const own = payments.find((p) => p.payment_session_id === row.id)
    const others = (row.payment_collection?.payment_sessions ?? []).filter((s): s is { id: string; status: string } => !!s && s.id !== row.id)
    const otherSession = others.find((s) => PAID_SESSION.has(s.status))
    const otherAwaiting = others.find((s) => s.status === "pending_authorization")
    const otherPayment = payments.find((p) => !p.canceled_at && p.payment_session_id && p.payment_session_id !== row.id)
    const state: SessionState = {
      id: row.id,
      amount: twdOrUndefined(row.amount, row.currency_code),
      status: row.status,
      data: row.data ?? {},
      paidElsewhere: otherSession ? `session ${otherSession.id}` : otherPayment ? `session ${otherPayment.payment_session_id}` : undefined,
      awaitingElsewhere: otherAwaiting ? `session ${otherAwaiting.id}` : undefined,
      payment: own ? { id: own.id, canceled: !!own.canceled_at } : undefined,
      cartId,
      order: orders[0] ? { id: orders[0].id, status: orders[0].status } : undefined,
    }
    return new StepResponse(state)
  }
)

function twdOrUndefined(amount: unknown, currency: string): number | undefined {
  try {
    return toTwd(amount as BigNumberInput, currency)
  } catch {
    return undefined
  }
}

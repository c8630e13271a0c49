import { MedusaError } from "@medusajs/framework/utils"

/** The parts of a payment session the webhook checks look at. */
export interface SessionRecord {
  id: string
  amount: number | string
  currency_code: string
  status: string
  provider_id: string
  data: Record<string, unknown> | null
  payment_collection?: {
    id: string
    payment_sessions?: Array<{ id: string; status: string }>
    payments?: Array<{ id: string; payment_session_id?: string | null; canceled_at?: Date | string | null }>
  }
}

interface SessionService {
  retrieve(id: string, config?: { relations?: string[] }): Promise<SessionRecord>
}

/**
 * Loads a payment session with its collection through the payment module's own
 * service (a provider's container has no query or link). Undefined when the
 * session is gone, for example replaced by a newer one.
 */
export async function findSession(cradle: Record<string, unknown>, id: string): Promise<SessionRecord | undefined> {
  const service = cradle.paymentSessionService as SessionService
  try {
    return await service.retrieve(id, {
      relations: ["payment_collection", "payment_collection.payment_sessions", "payment_collection.payments"],
    })
  } catch (error) {
    if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND) {
      return undefined
    }
    throw error
  }
}

/** Another session of the same collection that already holds the money, if any. */
export function otherPaidSession(session: SessionRecord): string | undefined {
  const collection = session.payment_collection
  const paidSession = collection?.payment_sessions?.find(
    (s) => s.id !== session.id && (s.status === "authorized" || s.status === "captured")
  )
  const payment = collection?.payments?.find((p) => !p.canceled_at && p.payment_session_id && p.payment_session_id !== session.id)
  return paidSession?.id ?? payment?.payment_session_id ?? undefined
}

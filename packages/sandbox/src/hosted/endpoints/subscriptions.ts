import { z } from "zod"
import type { HostedContext } from "../context"
import { validationError } from "../envelope"
import type { Recurring } from "../recurring"
import { checkMerchantId, requireObject } from "../validation"
import { subscriptionView } from "../views"
import type { HostedCall } from "./call"
import { subscriptionOf } from "./queries"

const cancelBodySchema = z.object({ reason: z.string({ error: "reason: must be a string" }).optional() })

/**
 * PUT /subscriptions/{subscriptionHid} (spec 4.12): cancels; V0001 when the S
 * number is unknown, another domain's or an internal id; V0002 when the state
 * does not allow it (checkout not completed, cancelled, completed, stopped).
 * Charges run instantly in the sandbox, so "being charged at that moment" never occurs.
 */
export function cancelSubscription(ctx: HostedContext, recurring: Recurring, call: HostedCall) {
  const body = requireObject(call.body)
  checkMerchantId(body, call.merchant)
  const sub = subscriptionOf(ctx, call, call.params.subscriptionHid)
  const parsed = cancelBodySchema.safeParse(body)
  if (!parsed.success) {
    throw validationError(parsed.error.issues.map((i) => i.message))
  }
  recurring.cancel(sub, "merchant_api", parsed.data.reason)
  return subscriptionView(sub)
}

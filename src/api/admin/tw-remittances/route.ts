import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import type { AdminListTwRemittancesType } from "./validators"

/** GET /admin/tw-remittances?status=due|refunded&limit=&offset=: money only a remittance can return, newest first. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminListTwRemittancesType>, res: MedusaResponse) {
  const { take, skip, order } = req.listConfig
  const { status } = req.validatedQuery as AdminListTwRemittancesType
  const [remittances, count] = await req.scope
    .resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
    .listAndCountTwRemittanceDues({ refunded_at: status === "due" ? null : { $ne: null } }, { take, skip, order })
  res.json({ remittances, count, limit: take, offset: skip })
}

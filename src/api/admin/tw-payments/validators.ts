import type { z } from "zod"
import { remitInfoSchema } from "../../../providers/hosted-checkout/public"
import { pluginSchema } from "../../plugin-schema"

/** Body of `POST /admin/tw-payments/:payment_id/remittance`: the provider's own schema of a bank account. */
export const AdminTwPaymentRemittance = pluginSchema(remitInfoSchema)
export type AdminTwPaymentRemittanceType = z.output<typeof remitInfoSchema>

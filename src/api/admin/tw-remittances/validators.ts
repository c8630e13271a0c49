import { z } from "@medusajs/framework/zod"
import { createFindParams } from "@medusajs/medusa/api/utils/validators"
import { remitInfoSchema } from "../../../providers/hosted-checkout/public"
import { pluginSchema } from "../../plugin-schema"

/** Query of `GET /admin/tw-remittances`: newest first, those still due unless `status` says otherwise. */
export const AdminListTwRemittances = createFindParams({ limit: 20, offset: 0, order: "-created_at" }).extend({
  status: z.enum(["due", "refunded"]).default("due"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
})
export type AdminListTwRemittancesType = z.infer<typeof AdminListTwRemittances>

export const remittanceListConfig = { isList: true, defaultLimit: 20, allowed: ["created_at", "amount"] }

/** Body of `POST /admin/tw-remittances/:id/refund`: the shopper's bank account, in the provider's own schema. */
export const AdminRefundTwRemittance = pluginSchema(remitInfoSchema)

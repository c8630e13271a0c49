import { z as frameworkZod } from "@medusajs/framework/zod"
import type { z } from "zod"
import { remitInfoSchema } from "../../../providers/hosted-checkout/public"
import { HEALTH_WINDOWS } from "../../../shared/health-views"
import { pluginSchema } from "../../plugin-schema"

/** Body of `POST /admin/tw-payments/:payment_id/remittance`: the provider's own schema of a bank account. */
export const AdminTwPaymentRemittance = pluginSchema(remitInfoSchema)
export type AdminTwPaymentRemittanceType = z.output<typeof remitInfoSchema>

/** Query of `GET /admin/tw-payments/health`: the window the figures count (the warnings are those on now). */
export const AdminTwPaymentsHealth = frameworkZod.object({ window: frameworkZod.enum(HEALTH_WINDOWS).default("day") }).strict()
export type AdminTwPaymentsHealthType = frameworkZod.infer<typeof AdminTwPaymentsHealth>

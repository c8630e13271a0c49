import { StatusBadge } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { SubscriptionStatus } from "../../shared/statuses"
import { STATUS_COLORS } from "../lib/subscription-format"

export const SubscriptionStatusBadge = ({ status }: { status: SubscriptionStatus }) => {
  const { t } = useTranslation()
  return <StatusBadge color={STATUS_COLORS[status] ?? "grey"}>{t(`twPayment.subscriptionStatus.${status}`, { defaultValue: status })}</StatusBadge>
}

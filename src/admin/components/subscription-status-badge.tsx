import { StatusBadge } from "@medusajs/ui"
import { STATUS_COLORS, STATUS_LABELS } from "../lib/subscription-format"
import type { SubscriptionStatus } from "../lib/subscription-types"

export const SubscriptionStatusBadge = ({ status }: { status: SubscriptionStatus }) => (
  <StatusBadge color={STATUS_COLORS[status] ?? "grey"}>{STATUS_LABELS[status] ?? status}</StatusBadge>
)

import { keepPreviousData, useQuery } from "@tanstack/react-query"
import type { HealthResponse, HealthWindow } from "../../shared/health-views"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

/** The Payments health page: the window's figures and the warnings on now, read again every minute (the rules' tick). */
export function usePaymentsHealth(window: HealthWindow) {
  return useQuery({
    queryKey: twQueryKeys.health(window),
    queryFn: () => sdk.client.fetch<HealthResponse>("/admin/tw-payments/health", { query: { window } }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  })
}

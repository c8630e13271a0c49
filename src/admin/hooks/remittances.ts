import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { RemittanceFields, RemittanceListResponse } from "../../shared/payment-views"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

/** The Remittances page: one page of the money due (or, `refunded`, returned), newest first. */
export function useRemittanceList(query: { status: "due" | "refunded"; limit: number; offset: number }) {
  return useQuery({
    queryKey: twQueryKeys.remittanceList(query),
    queryFn: () => sdk.client.fetch<RemittanceListResponse>("/admin/tw-remittances", { query }),
    placeholderData: keepPreviousData,
  })
}

/** Refunds one remittance due to the account typed in; the lists are read again. */
export function useRefundRemittance(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (fields: RemittanceFields) => sdk.client.fetch(`/admin/tw-remittances/${id}/refund`, { method: "POST", body: fields }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twQueryKeys.remittances }),
  })
}

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { AdminSavedCardsResponse } from "../../shared/saved-card-views"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

export function useCustomerSavedCards(customerId: string) {
  return useQuery({
    queryKey: twQueryKeys.savedCards(customerId),
    queryFn: () => sdk.client.fetch<AdminSavedCardsResponse>(`/admin/customers/${customerId}/tw-saved-cards`),
  })
}

/** Deletes a card (its token is wiped); the list is read again even after a failure, which may have been half-way. */
export function useDeleteSavedCard(customerId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (cardId: string) => sdk.client.fetch(`/admin/tw-saved-cards/${cardId}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: twQueryKeys.savedCards(customerId) }),
  })
}

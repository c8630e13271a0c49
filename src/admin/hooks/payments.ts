import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { RemittanceFields, TwPaymentResponse } from "../../shared/payment-views"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

export function useTwPayment(paymentId: string) {
  return useQuery({
    queryKey: twQueryKeys.payment(paymentId),
    queryFn: () => sdk.client.fetch<TwPaymentResponse>(`/admin/tw-payments/${paymentId}`),
  })
}

export function useSaveRemittance(paymentId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (fields: RemittanceFields) => sdk.client.fetch(`/admin/tw-payments/${paymentId}/remittance`, { method: "POST", body: fields }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twQueryKeys.payment(paymentId) }),
  })
}

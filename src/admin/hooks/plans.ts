import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { PlanFields, PlanResponse, PlansResponse } from "../../shared/subscription-views"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

export function useVariantPlans(variantId: string) {
  return useQuery({
    queryKey: twQueryKeys.plans(variantId),
    queryFn: () => sdk.client.fetch<PlansResponse>(`/admin/product-variants/${variantId}/tw-subscription-plans`),
  })
}

/** Creates a plan (no `planId`) or changes one; the variant's plans are read again after either. */
export function useSavePlan(variantId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ planId, fields }: { planId?: string; fields: Partial<PlanFields> }) =>
      sdk.client.fetch<PlanResponse>(planId ? `/admin/tw-subscription-plans/${planId}` : `/admin/product-variants/${variantId}/tw-subscription-plans`, {
        method: "POST",
        body: fields,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: twQueryKeys.plans(variantId) }),
  })
}

export function useDeletePlan(variantId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (planId: string) => sdk.client.fetch(`/admin/tw-subscription-plans/${planId}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: twQueryKeys.plans(variantId) }),
  })
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { AdminSubscriptionListResponse, AdminSubscriptionResponse, SubscriptionsResponse } from "../../shared/subscription-views"
import type { SubscriptionStatus } from "../../shared/statuses"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

export interface SubscriptionListQuery {
  limit: number
  offset: number
  status?: SubscriptionStatus
}

/** The Subscriptions page: one page of every subscription, newest first; the previous page stays shown while the next loads. */
export function useSubscriptionList(query: SubscriptionListQuery) {
  const params = { limit: query.limit, offset: query.offset, ...(query.status ? { status: query.status } : {}) }
  return useQuery({
    queryKey: twQueryKeys.subscriptionList(params),
    queryFn: () => sdk.client.fetch<AdminSubscriptionListResponse>("/admin/tw-subscriptions", { query: params }),
    placeholderData: keepPreviousData,
  })
}

export function useSubscription(id: string) {
  return useQuery({
    queryKey: twQueryKeys.subscription(id),
    queryFn: () => sdk.client.fetch<AdminSubscriptionResponse>(`/admin/tw-subscriptions/${id}`),
  })
}

export function useCustomerSubscriptions(customerId: string) {
  return useQuery({
    queryKey: twQueryKeys.customerSubscriptions(customerId),
    queryFn: () => sdk.client.fetch<SubscriptionsResponse>(`/admin/customers/${customerId}/tw-subscriptions`),
  })
}

/** The subscription an order is the first or a renewal order of (0 or 1). */
export function useOrderSubscriptions(orderId: string) {
  return useQuery({
    queryKey: twQueryKeys.orderSubscriptions(orderId),
    queryFn: () => sdk.client.fetch<SubscriptionsResponse>(`/admin/orders/${orderId}/tw-subscriptions`),
  })
}

/** Cancels at the service, then in the store; every subscription list and page is read again after it. */
export function useCancelSubscription(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (reason: string) => sdk.client.fetch<AdminSubscriptionResponse>(`/admin/tw-subscriptions/${id}/cancel`, { method: "POST", body: { reason } }),
    onSuccess: ({ subscription }) => {
      queryClient.setQueryData(twQueryKeys.subscription(id), { subscription })
      return queryClient.invalidateQueries({ queryKey: twQueryKeys.subscriptions })
    },
  })
}

/**
 * React Query keys of the plugin's admin data, under one prefix so they never meet the dashboard's own.
 * A mutation invalidates the narrowest key that covers what it changed.
 */
const ROOT = "medusa-payment-tw" as const

export const twQueryKeys = {
  subscriptions: [ROOT, "subscriptions"] as const,
  subscriptionList: (query: Record<string, string | number>) => [...twQueryKeys.subscriptions, "list", query] as const,
  subscription: (id: string) => [...twQueryKeys.subscriptions, "detail", id] as const,
  customerSubscriptions: (customerId: string) => [...twQueryKeys.subscriptions, "customer", customerId] as const,
  orderSubscriptions: (orderId: string) => [...twQueryKeys.subscriptions, "order", orderId] as const,
  customers: (ids: string[]) => [ROOT, "customers", ids] as const,
  plans: (variantId: string) => [ROOT, "plans", variantId] as const,
  savedCards: (customerId: string) => [ROOT, "saved-cards", customerId] as const,
  payment: (paymentId: string) => [ROOT, "payments", paymentId] as const,
  remittances: [ROOT, "remittances"] as const,
  remittanceList: (query: Record<string, string | number>) => [...twQueryKeys.remittances, "list", query] as const,
  health: (window: string) => [ROOT, "health", window] as const,
}

import { useQuery } from "@tanstack/react-query"
import { twQueryKeys } from "../lib/query-keys"
import { sdk } from "../lib/sdk"

/** The customers of a list page in one request to Medusa's own customer list: subscription rows carry only ids. */
export function useCustomersById(ids: string[]) {
  const unique = [...new Set(ids)].sort()
  return useQuery({
    queryKey: twQueryKeys.customers(unique),
    queryFn: () => sdk.admin.customer.list({ id: unique, fields: "id,email,first_name,last_name", limit: unique.length }),
    enabled: unique.length > 0,
    select: ({ customers }) => new Map(customers.map((customer) => [customer.id, customer])),
  })
}

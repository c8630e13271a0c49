// Logged-in customers over the store API, as a storefront signs one up: the renewals burst and the chaos run's subscribers and saved-card payers.
import { type BenchStore, requestJson } from "./store"

const PASSWORD = "bench-customer-password-1"

/** A customer account, logged in: registered, created, and its token refreshed to carry the customer. */
export async function loggedInCustomer(store: BenchStore, email: string): Promise<Record<string, string>> {
  const auth = (path: string, token?: string, body?: unknown) =>
    requestJson<{ token: string }>(
      `${store.url}${path}`,
      { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body ?? {}) },
      `POST ${path}`
    )
  const { data: registered } = await auth("/auth/customer/emailpass/register", undefined, { email, password: PASSWORD })
  await store.api("POST", "/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { authorization: `Bearer ${registered.token}` } })
  const { data: refreshed } = await auth("/auth/token/refresh", registered.token)
  return { authorization: `Bearer ${refreshed.token}` }
}

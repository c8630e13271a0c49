import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./medusa"
import { storeErrorStatus } from "./store-error"

/**
 * The logged-in customer, the js-sdk way: `auth.login` keeps the customer's
 * token in localStorage (`medusa_auth_token`) and every store call sends it.
 * The storefront server passes `/auth/customer/*` on to Medusa.
 */

export interface Registration {
  email: string
  password: string
  first_name: string
  last_name: string
}

/** The logged-in customer, or undefined for a guest (a token that no longer works is forgotten). */
export async function loggedInCustomer(): Promise<HttpTypes.StoreCustomer | undefined> {
  if (!(await sdk.client.getToken())) {
    return undefined
  }
  try {
    return (await sdk.store.customer.retrieve()).customer
  } catch (error) {
    if (storeErrorStatus(error) === 401) {
      await sdk.auth.logout()
      return undefined
    }
    throw error
  }
}

export async function logIn(email: string, password: string): Promise<HttpTypes.StoreCustomer> {
  const result = await sdk.auth.login("customer", "emailpass", { email, password })
  if (typeof result !== "string") {
    throw new Error("This account needs a login step the demo store does not offer.")
  }
  return (await sdk.store.customer.retrieve()).customer
}

/** A new account: the identity, then the customer with the name the payment service needs, then a login. */
export async function register(registration: Registration): Promise<HttpTypes.StoreCustomer> {
  const { email, password, first_name, last_name } = registration
  // Keeps the registration token for the next call only: it has no customer yet.
  await sdk.auth.register("customer", "emailpass", { email, password })
  await sdk.store.customer.create({ email, first_name, last_name })
  return logIn(email, password)
}

export const logOut = () => sdk.auth.logout()

/** "/account?next=<this page>": the account page sends the shopper back here after logging in. */
export const loginHref = (next = location.pathname) => `/account?${new URLSearchParams({ next })}`

/** A path on this site to go to after logging in; anything else (another origin) is ignored. */
export function safeNext(value: string | null): string | undefined {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : undefined
}

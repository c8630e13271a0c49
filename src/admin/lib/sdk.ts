import Medusa from "@medusajs/js-sdk"

/** Set by the dashboard's build: where the admin API is when it is not the admin's own origin. */
declare const __BACKEND_URL__: string | undefined

/**
 * The one JS SDK client of the plugin's admin pages and widgets, as Medusa's admin docs set it up: the
 * dashboard's session cookie authenticates every call. The `typeof` guard keeps a build that does
 * not define the constant working, on the admin's own origin.
 */
export const sdk = new Medusa({
  baseUrl: (typeof __BACKEND_URL__ === "string" && __BACKEND_URL__) || "/",
  auth: { type: "session" },
})

import { inspect } from "node:util"
import { InvalidRequestError } from "../../http"
import { HostedCheckoutClient } from "../hosted-client"
import { checkoutPage, PAGE_VALIDITY_MS } from "../pages"
import { API_TOKEN, BASE_URL, CHECKOUT_HOST, MERCHANT, mockApi, NOW, TX_ID } from "./mock-api"

describe("checkoutPage", () => {
  const calledAt = new Date("2026-11-21T16:30:00Z")

  it.each([
    ["checkout", `/checkout/${TX_ID}`, 5],
    ["subscription", `/checkout/subscription/${TX_ID}`, 5],
    ["schedule", `/checkout/schedule/${TX_ID}`, 5],
    ["cardBinding", `/checkout/subscription/create/${TX_ID}`, 10],
  ] as const)("%s page: %s, valid %d minutes from the call", (kind, path, minutes) => {
    const page = checkoutPage(CHECKOUT_HOST, kind, TX_ID, calledAt)
    expect(page.url).toBe(`${CHECKOUT_HOST}${path}`)
    expect(page.expiresAt.toISOString()).toBe(new Date(calledAt.getTime() + minutes * 60_000).toISOString())
    expect(PAGE_VALIDITY_MS[kind]).toBe(minutes * 60_000)
  })

  it("joins a host with a trailing slash and encodes the id", () => {
    expect(checkoutPage(`${CHECKOUT_HOST}/`, "checkout", "a/b c", calledAt).url).toBe(`${CHECKOUT_HOST}/checkout/a%2Fb%20c`)
  })

  it("is reachable from the client, defaulting the call time to the client clock", async () => {
    const api = mockApi()
    try {
      expect(api.client.checkoutPage("schedule", TX_ID)).toEqual({
        url: `${CHECKOUT_HOST}/checkout/schedule/${TX_ID}`,
        expiresAt: new Date(NOW.getTime() + 5 * 60_000),
      })
    } finally {
      await api.close()
    }
  })
})

describe("HostedCheckoutClient", () => {
  const options = { apiToken: API_TOKEN, merchantId: MERCHANT, baseUrl: BASE_URL, checkoutHost: CHECKOUT_HOST }

  it.each([
    ["an empty apiToken", { apiToken: "" }, "apiToken"],
    ["an empty merchantId", { merchantId: "" }, "merchantId"],
    ["a relative baseUrl", { baseUrl: "/api" }, "baseUrl"],
    ["a non-http checkoutHost", { checkoutHost: "ftp://tea-house.pay.test" }, "checkoutHost"],
  ])("refuses %s", (_what, change, field) => {
    expect(() => new HostedCheckoutClient({ ...options, ...change })).toThrow(InvalidRequestError)
    expect(() => new HostedCheckoutClient({ ...options, ...change })).toThrow(field)
  })

  it("never exposes the API token through properties, JSON or inspection", async () => {
    const client = new HostedCheckoutClient(options)
    try {
      expect(JSON.stringify(client)).not.toContain(API_TOKEN)
      expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(API_TOKEN)
      expect(Object.values(client).some((value) => value === API_TOKEN)).toBe(false)
      expect(client.merchantId).toBe(MERCHANT)
    } finally {
      await client.close()
    }
  })

  it("does not leak the token in the options error either", () => {
    try {
      new HostedCheckoutClient({ ...options, baseUrl: "not a url" })
      throw new Error("expected a throw")
    } catch (error) {
      expect((error as Error).message).toContain("baseUrl")
      expect((error as Error).message).not.toContain(API_TOKEN)
    }
  })
})

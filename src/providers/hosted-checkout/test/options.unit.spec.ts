import { HostedCheckoutProviderService } from "../service"
import { parseHostedCheckoutOptions } from "../options"

const valid = {
  apiToken: "secret-token-1234567890",
  merchantId: "tea-house",
  apiBaseUrl: "https://api.pay.test",
  checkoutHost: "https://tea-house.pay.test",
  storefrontUrl: "https://shop.test",
}

describe("hosted-checkout options", () => {
  it("fills the documented defaults", () => {
    expect(parseHostedCheckoutOptions(valid)).toMatchObject({
      allowedMethods: ["card"],
      threeDSecure: false,
      successPath: "/checkout/hosted/return",
      failurePath: "/checkout/hosted/failed",
      einvoice: false,
      reconciliation: { enabled: true, maxPerRun: 50, requestsPerSecond: 5 },
      deliveries: { delayMs: 5_000, attempts: 3, serverConcurrency: 2 },
    })
  })

  it.each([
    [{ ...valid, apiToken: "" }, "apiToken"],
    [{ ...valid, merchantId: undefined }, "merchantId"],
    [{ ...valid, apiBaseUrl: "not a url" }, "apiBaseUrl"],
    [{ ...valid, checkoutHost: "ftp://x.test" }, "checkoutHost"],
    [{ ...valid, allowedMethods: ["card", "bitcoin"] }, "allowedMethods"],
    [{ ...valid, failurePath: "/failed?x=1" }, "failurePath"],
    [{ ...valid, reconciliation: { maxPerRun: 0 } }, "reconciliation.maxPerRun"],
    [{ ...valid, deliveries: { delayMs: -1 } }, "deliveries.delayMs"],
    [{ ...valid, deliveries: { attempts: 0 } }, "deliveries.attempts"],
    [{ ...valid, deliveries: { serverConcurrency: 9 } }, "deliveries.serverConcurrency"],
    [{ ...valid, apiKey: "typo" }, "apiKey"],
  ])("refuses bad options at boot with a message naming them (%#)", (options, field) => {
    expect(() => HostedCheckoutProviderService.validateOptions(options as Record<string, unknown>)).toThrow(field)
  })

  it("never repeats the token in the error", () => {
    const attempt = () => HostedCheckoutProviderService.validateOptions({ ...valid, apiBaseUrl: valid.apiToken })
    expect(attempt).toThrow(/apiBaseUrl/)
    try {
      attempt()
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(valid.apiToken)
    }
  })
})

import { healthOptions } from "../health-options"

describe("healthOptions (the health rules' thresholds, checked at boot)", () => {
  it("fills in every default when the plugin's options name none", () => {
    expect(healthOptions(undefined)).toEqual({
      windowMinutes: 60,
      reconciledShare: 0.5,
      reconciledOrders: 20,
      minOrders: 3,
      signatureFailures: 1,
      refundMinutes: 60,
      remittanceDays: 3,
      openChargeMinutes: 30,
    })
    expect(healthOptions({ tokenKeys: {} })).toMatchObject({ windowMinutes: 60 })
  })

  it("keeps the values given and defaults the rest", () => {
    expect(healthOptions({ health: { windowMinutes: 5, reconciledShare: 0.3 } })).toMatchObject({ windowMinutes: 5, reconciledShare: 0.3, remittanceDays: 3 })
  })

  it.each([
    ["a share above 1", { reconciledShare: 1.5 }, "health.reconciledShare: must be between 0 and 1"],
    ["a negative window", { windowMinutes: -1 }, "health.windowMinutes: must be above 0 (minutes)"],
    ["a fraction of orders", { minOrders: 2.5 }, "health.minOrders: must be a whole number"],
    ["a text", { remittanceDays: "3" }, "health.remittanceDays: must be a number (days)"],
    ["an unknown option", { refundHours: 2 }, "health: Unrecognized key: \"refundHours\""],
  ])("stops the boot with the option's name: %s", (_name, health, message) => {
    expect(() => healthOptions({ health })).toThrow(`medusa-payment-tw health (module tw_payment_sweep): invalid options: ${message}`)
  })
})

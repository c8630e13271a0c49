import { providerId, providerKey, webhookPath } from "../provider-keys"

describe("provider keys", () => {
  it("derives the key, the provider id and the webhook path from identifier and id", () => {
    const key = providerKey("hosted-checkout", "tw")
    expect(key).toBe("hosted-checkout_tw")
    expect(providerId(key)).toBe("pp_hosted-checkout_tw")
    expect(webhookPath(key)).toBe("/hooks/payment/hosted-checkout_tw")
  })
})

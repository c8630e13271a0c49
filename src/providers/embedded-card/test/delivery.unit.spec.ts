import { signPayload } from "../../../lib/embedded"
import { mockLogger } from "../../core/test/mock-logger"
import { EmbeddedCardApi } from "../embedded-card-api"
import { parseEmbeddedCardOptions } from "../options"

/** What one verification of an embedded webhook gives: why it was refused, for the health tallies. */

const secret = "whsec_" + "c".repeat(48)
const api = new EmbeddedCardApi(
  parseEmbeddedCardOptions({
    secretKey: "sk_" + "a".repeat(32),
    publishableKey: "pk_" + "b".repeat(24),
    webhookSecrets: secret,
    apiBaseUrl: "https://embed.pay.test",
    sdkUrl: "https://js.pay.test/v1.4.0/twpay.js",
    storefrontUrl: "https://shop.test",
  }),
  mockLogger()
)
const body = Buffer.from(JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded", data: { id: "pi_1" } }))

describe("embedded readDelivery", () => {
  it("a webhook without a signature is refused as unsigned", () => {
    expect(api.readDelivery({ data: {}, rawData: body, headers: {} })).toEqual({ refusal: "unsigned" })
  })

  it("one signed with no configured secret is refused as signature_failed", () => {
    const header = signPayload(body, "whsec_" + "d".repeat(48))
    expect(api.readDelivery({ data: {}, rawData: body, headers: { "svc-signature": header } })).toEqual({ refusal: "signature_failed" })
  })
})

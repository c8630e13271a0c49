import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { card, payPage, SUCCESS_CARD } from "../../../../integration-tests/helpers/hosted-store"
import { HostedCheckoutProviderService } from "../service"

/**
 * `capturePayment` confirms that the service holds the money: it refuses a
 * transaction that was never paid, and one whose money was given back (I2),
 * against the sandbox over loopback HTTP.
 */
let sandbox: SandboxHandle
let provider: HostedCheckoutProviderService
const quietLogger = { info() {}, warn() {}, error() {}, debug() {} }

beforeAll(async () => {
  sandbox = await startSandbox({ tickMs: 0 })
  provider = new HostedCheckoutProviderService(
    { logger: quietLogger },
    {
      apiToken: sandbox.defaultMerchant.token,
      merchantId: sandbox.defaultMerchant.merchantId,
      apiBaseUrl: sandbox.hostedBaseUrl,
      checkoutHost: sandbox.checkoutHost,
      storefrontUrl: "https://shop.test",
    }
  )
})
afterAll(async () => {
  await sandbox?.close()
})

async function paidSession(sessionId: string) {
  const { data } = await provider.initiatePayment({ amount: 800, currency_code: "twd", data: { session_id: sessionId } })
  return data!
}

it("refuses to capture an unpaid transaction", async () => {
  const data = await paidSession("payses_capture_unpaid")
  await expect(provider.capturePayment({ data })).rejects.toThrow(/is initiated, not paid/)
})

it("captures a paid transaction, and refuses once the service has refunded it", async () => {
  const data = await paidSession("payses_capture_refunded")
  await payPage(String(data.checkoutUrl), card(SUCCESS_CARD))
  await expect(provider.capturePayment({ data })).resolves.toMatchObject({ data: expect.objectContaining({ status: "charged" }) })

  await provider.refundPayment({ amount: 800, data, context: { idempotency_key: "refund_1" } })
  await expect(provider.capturePayment({ data })).rejects.toThrow(/is refunded with 800 TWD refunded, not paid/)
})

import path from "node:path"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import * as PaymentModels from "@medusajs/payment/dist/models"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { confirmCard } from "../../../../integration-tests/helpers/hosted-store"
import { Attestor } from "../../core/attestation"
import { EmbeddedCardProviderService } from "../service"

jest.setTimeout(120_000)

/**
 * The embedded provider inside Medusa's real payment module (PostgreSQL),
 * against the sandbox over HTTP: what the store flows do not reach.
 */
const PROVIDER = "pp_embedded-card_card"
let sandbox: SandboxHandle
const providerOptions: Record<string, unknown> = {}

beforeAll(async () => {
  sandbox = await startSandbox({ tickMs: 0 })
  Object.assign(providerOptions, {
    secretKey: sandbox.embedded.secretKey,
    publishableKey: sandbox.embedded.publishableKey,
    apiBaseUrl: sandbox.embedded.baseUrl,
    sdkUrl: sandbox.embedded.sdkUrl,
    storefrontUrl: "http://localhost:8000",
    webhookSecrets: `whsec_${"s".repeat(48)}`,
  })
})
afterAll(async () => {
  await sandbox?.close()
})

const intent = async (id: string) => (await fetch(`${sandbox.controlUrl}/payment-intents/${id}`)).json()

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: path.dirname(require.resolve("@medusajs/payment/package.json")),
  moduleModels: Object.values(PaymentModels),
  moduleOptions: { providers: [{ resolve: path.resolve(__dirname, ".."), id: "card", options: providerOptions }] },
  testSuite: ({ service }) => {
    async function session(amount: number) {
      const [collection] = await service.createPaymentCollections([{ amount, currency_code: "twd" }])
      return service.createPaymentSession(collection.id, { provider_id: PROVIDER, amount, currency_code: "twd", data: {} })
    }

    it("refuses amounts the service cannot take before calling it", async () => {
      await expect(session(200_001)).rejects.toThrow(/amount/)
      const [collection] = await service.createPaymentCollections([{ amount: 10, currency_code: "usd" }])
      await expect(service.createPaymentSession(collection.id, { provider_id: PROVIDER, amount: 10, currency_code: "usd", data: {} })).rejects.toThrow(/only takes TWD/)
    })

    it("a new amount cancels the intent and creates another (only metadata can change)", async () => {
      const created = await session(1000)
      const first = (created.data as { paymentIntentId: string }).paymentIntentId
      const updated = await service.updatePaymentSession({ id: created.id, amount: 1200, currency_code: "twd", data: created.data })
      const second = (updated.data as { paymentIntentId: string; amount: number }).paymentIntentId
      expect(second).not.toBe(first)
      expect((updated.data as { amount: number }).amount).toBe(1200)
      expect((await intent(first)).status).toBe("canceled")
      expect(await intent(second)).toMatchObject({ amount: 1200, status: "created" })
    })

    it("cancelling is idempotent: an intent already cancelled is fine", async () => {
      const created = await session(500)
      const id = (created.data as { paymentIntentId: string }).paymentIntentId
      await fetch(`${sandbox.embedded.baseUrl}/v1/payment-intents/${id}/cancel`, {
        method: "POST",
        headers: { authorization: `Bearer ${sandbox.embedded.secretKey}` },
      })
      await expect(service.deletePaymentSession(created.id)).resolves.not.toThrow()
      expect((await intent(id)).status).toBe("canceled")
    })

    it("a retried initiate (same Medusa idempotency key) gets the same intent back", async () => {
      const provider = new EmbeddedCardProviderService({ logger: { info() {}, warn() {}, error() {}, debug() {} } }, providerOptions as never)
      const input = { amount: 300, currency_code: "twd", data: { session_id: "payses_retry_1" }, context: { idempotency_key: "payses_retry_1" } }
      const first = await provider.initiatePayment(input)
      const second = await provider.initiatePayment(input)
      expect(second.id).toBe(first.id)
      const { paymentIntents } = await (await fetch(`${sandbox.controlUrl}/payment-intents`)).json()
      expect(paymentIntents.filter((i: { metadata: { session_id?: string } }) => i.metadata.session_id === "payses_retry_1")).toHaveLength(1)
    })

    it("a sealed read of an unpaid intent is read again: the shopper may have paid since (3-D Secure passed after a webhook)", async () => {
      const provider = new EmbeddedCardProviderService({ logger: { info() {}, warn() {}, error() {}, debug() {} } }, providerOptions as never)
      const input = { amount: 400, currency_code: "twd", data: { session_id: "payses_sealed_1" }, context: { idempotency_key: "payses_sealed_1" } }
      const { id, data } = await provider.initiatePayment(input)
      // The provider seals with its secret key: a seal made here with the same key is the pipeline's.
      const attestor = new Attestor(String(providerOptions.secretKey))
      const attestation = attestor.seal({ sessionId: "payses_sealed_1", serviceId: id, amount: 400, status: "requires_action" })
      expect((await confirmCard(sandbox, String(data?.clientSecret), "4242424242424242")).body.data.status).toBe("succeeded")

      const authorized = await provider.authorizePayment({ data: { ...data, attestation }, context: { idempotency_key: "payses_sealed_1" } })
      expect(authorized.status).toBe("captured")
    })
  },
})

import path from "node:path"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import * as PaymentModels from "@medusajs/payment/dist/models"

jest.setTimeout(120_000)

// The module-level harness: Medusa's real payment module on a real PostgreSQL,
// with its own migrations. Provider suites register their provider here.
const paymentPackage = path.dirname(require.resolve("@medusajs/payment/package.json"))

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: paymentPackage,
  moduleModels: Object.values(PaymentModels),
  testSuite: ({ service }) => {
    describe("payment module harness", () => {
      it("runs a session through authorization and capture in PostgreSQL", async () => {
        const [collection] = await service.createPaymentCollections([{ amount: 1200, currency_code: "twd" }])
        const session = await service.createPaymentSession(collection.id, {
          provider_id: "pp_system_default",
          amount: 1200,
          currency_code: "twd",
          data: {},
        })

        const payment = await service.authorizePaymentSession(session.id, {})
        await service.capturePayment({ payment_id: payment!.id })

        const [stored] = await service.listPaymentCollections({ id: collection.id }, { relations: ["payments"] })
        expect(stored.status).toEqual("completed")
        expect(stored.payments).toHaveLength(1)
        expect(Number(stored.payments![0].amount)).toEqual(1200)
      })
    })
  },
})

import { Modules } from "@medusajs/framework/utils"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    describe("the development store from medusa-config.ts", () => {
      it("answers its health check", async () => {
        const response = await api.get("/health")
        expect(response.status).toEqual(200)
        expect(response.data).toEqual("OK")
      })

      it("serves store data from PostgreSQL to a publishable key", async () => {
        const container = getContainer()
        const regionModule = container.resolve(Modules.REGION)
        const apiKeyModule = container.resolve(Modules.API_KEY)
        await regionModule.createRegions({ name: "Taiwan", currency_code: "twd", countries: ["tw"] })
        const key = await apiKeyModule.createApiKeys({ title: "test", type: "publishable", created_by: "test" })

        const response = await api.get("/store/regions", { headers: { "x-publishable-api-key": key.token } })

        expect(response.status).toEqual(200)
        expect(response.data.regions).toEqual([
          expect.objectContaining({ name: "Taiwan", currency_code: "twd" }),
        ])
      })

      it("refuses the store API without a publishable key", async () => {
        const error = await api.get("/store/regions").catch((e: { response: { status: number } }) => e)
        expect(error.response.status).toEqual(400)
      })
    })
  },
})

import path from "node:path"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { TW_PAYMENT_SWEEP_MODULE, TwPaymentSweepModuleService } from "../index"

jest.setTimeout(120_000)

const MINUTE = 60_000
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The delivery pipeline's stored markers (`src/deliveries/delivery-claims.ts`)
 * in the sweep module's table, on PostgreSQL: a mark is set once, however many
 * calls race for it; it expires; a read window extends to the later expiry;
 * writes remove expired rows. Rows are read with SQL, not through the module.
 */
moduleIntegrationTestRunner<TwPaymentSweepModuleService>({
  moduleName: TW_PAYMENT_SWEEP_MODULE,
  resolve: path.join(__dirname, ".."),
  testSuite: ({ service, MikroOrmWrapper }) => {
    const sql = async (text: string) => (await MikroOrmWrapper.forkManager().getConnection().execute(text)) as Array<Record<string, unknown>>
    /** Each row's key and how many milliseconds it has left, by the database's clock. */
    const rows = async () =>
      (await sql("select id, extract(epoch from expires_at - now()) * 1000 as left_ms from tw_delivery_marker order by id")).map((row) => ({ id: row.id as string, leftMs: Number(row.left_ms) }))

    it("a mark is set once: of many calls at once for one key, one sets it, and one row holds it", async () => {
      const results = await Promise.all(Array.from({ length: 40 }, () => service.setMarkerOnce("delivery:p:tx1:charged", 48 * 3600_000)))
      expect(results.filter(Boolean)).toHaveLength(1)
      const [row, ...others] = await rows()
      expect(others).toEqual([])
      expect(row.id).toBe("delivery:p:tx1:charged")
      expect(row.leftMs).toBeGreaterThan(48 * 3600_000 - MINUTE)
      expect(row.leftMs).toBeLessThanOrEqual(48 * 3600_000)
      expect(await service.hasMarker("delivery:p:tx1:charged")).toBe(true)
      expect(await service.hasMarker("delivery:p:tx1:initiated")).toBe(false)
    })

    it("a set mark stands: a second mark neither shortens nor renews it", async () => {
      expect(await service.setMarkerOnce("delivery:p:evt_1", 10 * MINUTE)).toBe(true)
      const [before] = await rows()
      expect(await service.setMarkerOnce("delivery:p:evt_1", 1)).toBe(false)
      expect(await service.setMarkerOnce("delivery:p:evt_1", 60 * MINUTE)).toBe(false)
      const [row] = await rows()
      expect(row.leftMs).toBeLessThanOrEqual(before.leftMs)
      expect(row.leftMs).toBeGreaterThan(9 * MINUTE)
    })

    it("a mark expires: then it counts as absent, and the next mark replaces it in the same row", async () => {
      expect(await service.setMarkerOnce("delivery:p:tx2:charged", 400)).toBe(true)
      expect(await service.hasMarker("delivery:p:tx2:charged")).toBe(true)
      await after(600)
      expect(await service.hasMarker("delivery:p:tx2:charged")).toBe(false)
      expect(await service.setMarkerOnce("delivery:p:tx2:charged", 10 * MINUTE)).toBe(true)
      const found = await rows()
      expect(found).toHaveLength(1)
      expect(found[0].leftMs).toBeGreaterThan(9 * MINUTE)
      expect(await service.hasMarker("delivery:p:tx2:charged")).toBe(true)
    })

    it("a read window extends to the later expiry, never shortens, and starts anew once expired", async () => {
      const key = "delivery-read:p:tx3"
      await service.extendMarker(key, 2 * MINUTE)
      await service.extendMarker(key, 1_000)
      expect((await rows())[0].leftMs).toBeGreaterThan(MINUTE)
      await service.extendMarker(key, 10 * MINUTE)
      expect((await rows())[0].leftMs).toBeGreaterThan(9 * MINUTE)
      // Windows set at once: the latest expiry wins, in one row.
      await Promise.all([3, 20, 7, 15].map((minutes) => service.extendMarker(key, minutes * MINUTE)))
      const found = await rows()
      expect(found).toHaveLength(1)
      expect(found[0].leftMs).toBeGreaterThan(19 * MINUTE)

      const short = "delivery-read:p:tx4"
      await service.extendMarker(short, 400)
      expect(await service.hasMarker(short)).toBe(true)
      await after(600)
      expect(await service.hasMarker(short)).toBe(false)
      await service.extendMarker(short, 1_000)
      expect(await service.hasMarker(short)).toBe(true)
    })

    it("writes remove expired rows, a few at a time, and never a live one", async () => {
      await sql(
        "insert into tw_delivery_marker (id, expires_at) select 'delivery:p:old' || n, now() - interval '1 hour' from generate_series(1, 15) n"
      )
      await service.setMarkerOnce("delivery:p:live", 10 * MINUTE)
      expect(await rows()).toHaveLength(1 + 15 - 10)
      await service.extendMarker("delivery-read:p:live", 10 * MINUTE)
      expect((await rows()).map((row) => row.id).sort()).toEqual(["delivery-read:p:live", "delivery:p:live"].sort())
      expect(await service.hasMarker("delivery:p:live")).toBe(true)
    })
  },
})

import path from "node:path"
import { randomBytes } from "node:crypto"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { checkTokenKeys } from "../check-token-keys"
import { TW_SAVED_CARD_MODULE, TwSavedCardModuleService } from "../index"

jest.setTimeout(120_000)

const OLD_KEY = randomBytes(32).toString("base64")
const NEW_KEY = randomBytes(32).toString("base64")
const TOKEN = `tok_${randomBytes(20).toString("hex")}`
const oldOnly = { tokenKeys: { old: OLD_KEY }, activeTokenKeyId: "old" }
const rotated = { tokenKeys: { new: NEW_KEY, old: OLD_KEY }, activeTokenKeyId: "new" }

/**
 * The saved-cards module on PostgreSQL: what a row holds (read with SQL, not
 * through the module), key rotation, and the boot check of the keys.
 */
moduleIntegrationTestRunner<TwSavedCardModuleService>({
  moduleName: TW_SAVED_CARD_MODULE,
  resolve: path.join(__dirname, ".."),
  moduleOptions: oldOnly,
  testSuite: ({ service, MikroOrmWrapper }) => {
    const rowsInSql = async () => (await MikroOrmWrapper.forkManager().getConnection().execute("select * from tw_saved_card order by id")) as Array<Record<string, unknown>>
    /** The module's own cradle (its database access), which Medusa's service keeps as `__container__`. */
    const cradle = (): Record<string, unknown> => Reflect.get(service, "__container__")
    /** The same module's data under other options: as the store after a restart with new keys. */
    const restarted = (options: unknown) => new TwSavedCardModuleService(cradle(), options)
    /** The module's boot check, with the module's own database access. */
    const boot = (options: unknown) => checkTokenKeys({ options, container: { resolve: <T>(key: string) => cradle()[key] as T } })

    async function boundCard(customerId = "cus_1", token = TOKEN) {
      const card = await service.createTwSavedCards({ customer_id: customerId, provider_id: "pp_hosted-checkout_hosted-checkout", binding_expires_at: new Date(Date.now() + 600_000) })
      await service.activateSavedCard(card.id, { token, last4: "4242" })
      return card.id
    }

    it("keeps the token encrypted under its key id, bound to its row, and reveals it only for the card's customer", async () => {
      const id = await boundCard()
      const [row] = await rowsInSql()
      expect(row.status).toBe("active")
      expect(row.token_key_id).toBe("old")
      expect(row.token_ciphertext).toMatch(/^old:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/)
      // No column, in no encoding, holds the token.
      const text = JSON.stringify(row)
      for (const form of [TOKEN, Buffer.from(TOKEN).toString("base64"), Buffer.from(TOKEN).toString("base64url"), Buffer.from(TOKEN).toString("hex")]) {
        expect(text).not.toContain(form)
      }
      expect(await service.revealToken(id, "cus_1")).toBe(TOKEN)
      await expect(service.revealToken(id, "cus_2")).rejects.toThrow(`Saved card ${id} was not found.`)

      // The ciphertext does not open on another row (the row id is its additional data).
      const other = await service.createTwSavedCards({ customer_id: "cus_1", provider_id: "pp_hosted-checkout_hosted-checkout", binding_expires_at: new Date(), status: "active" })
      await service.updateTwSavedCards({ id: other.id, token_ciphertext: row.token_ciphertext as string, token_key_id: "old" })
      await expect(service.revealToken(other.id, "cus_1")).rejects.toThrow('a token under key "old" did not open')

      // A deleted card loses its token.
      await service.deleteSavedCard(id)
      const deleted = (await rowsInSql()).find((r) => r.id === id)!
      expect([deleted.status, deleted.token_ciphertext, deleted.token_key_id]).toEqual(["deleted", null, null])
      await expect(service.revealToken(id, "cus_1")).rejects.toThrow("was not found")
    })

    it("rotation: old rows still open while their key is configured, the rotation moves every token under the active key", async () => {
      const ids = [await boundCard("cus_1", `${TOKEN}_a`), await boundCard("cus_2", `${TOKEN}_b`)]
      const after = restarted(rotated)
      // New key active, old key still configured: old rows open, new tokens go under the new key.
      expect(await after.revealToken(ids[0], "cus_1")).toBe(`${TOKEN}_a`)
      const fresh = await after.createTwSavedCards({ customer_id: "cus_3", provider_id: "pp_hosted-checkout_hosted-checkout", binding_expires_at: new Date() })
      await after.activateSavedCard(fresh.id, { token: `${TOKEN}_c` })
      expect((await rowsInSql()).map((r) => r.token_key_id)).toEqual(expect.arrayContaining(["old", "old", "new"]))

      const before = await rowsInSql()
      expect(await after.reencryptTokens()).toEqual({ reencrypted: 2, failed: [] })
      const rows = await rowsInSql()
      expect(rows.map((r) => r.token_key_id)).toEqual(["new", "new", "new"])
      for (const row of rows) {
        expect(String(row.token_ciphertext)).toMatch(/^new:/)
        expect(JSON.stringify(row)).not.toContain(TOKEN)
      }
      // The one already under the new key is left as it was.
      expect(rows.find((r) => r.id === fresh.id)!.token_ciphertext).toBe(before.find((r) => r.id === fresh.id)!.token_ciphertext)
      // Run again: nothing to do.
      expect(await after.reencryptTokens()).toEqual({ reencrypted: 0, failed: [] })

      // Only the new key now: every token opens; the old key alone opens none.
      const newOnly = restarted({ tokenKeys: { new: NEW_KEY }, activeTokenKeyId: "new" })
      expect(await newOnly.revealToken(ids[0], "cus_1")).toBe(`${TOKEN}_a`)
      expect(await newOnly.revealToken(ids[1], "cus_2")).toBe(`${TOKEN}_b`)
      expect(await newOnly.revealToken(fresh.id, "cus_3")).toBe(`${TOKEN}_c`)
      await expect(service.revealToken(ids[0], "cus_1")).rejects.toThrow('token key "new" is not configured')
    })

    it("a rotation never writes a token back onto a card deleted while it runs", async () => {
      const kept = await boundCard("cus_1", `${TOKEN}_kept`)
      const gone = await boundCard("cus_2", `${TOKEN}_gone`)
      const after = restarted(rotated)
      // The customer deletes a card after the rotation listed it and before it wrote.
      const list = after.listTwSavedCards.bind(after)
      jest.spyOn(after, "listTwSavedCards").mockImplementationOnce(async (...args: Parameters<typeof list>) => {
        const rows = await list(...args)
        await service.deleteSavedCard(gone)
        return rows
      })
      expect(await after.reencryptTokens()).toEqual({ reencrypted: 1, failed: [] })
      const rows = await rowsInSql()
      const deleted = rows.find((r) => r.id === gone)!
      expect([deleted.status, deleted.token_ciphertext, deleted.token_key_id]).toEqual(["deleted", null, null])
      expect(rows.find((r) => r.id === kept)!.token_key_id).toBe("new")
      expect(await after.revealToken(kept, "cus_1")).toBe(`${TOKEN}_kept`)
      // Run again: the deleted card stays without a token.
      expect(await after.reencryptTokens()).toEqual({ reencrypted: 0, failed: [] })
      expect((await rowsInSql()).find((r) => r.id === gone)!.token_ciphertext).toBeNull()
    })

    it("a rotation leaves a token whose key is gone as it is, and names its row", async () => {
      const id = await boundCard()
      const result = await restarted({ tokenKeys: { other: NEW_KEY }, activeTokenKeyId: "other" }).reencryptTokens()
      expect(result).toEqual({ reencrypted: 0, failed: [id] })
      expect((await rowsInSql())[0].token_key_id).toBe("old")
    })

    it("the boot check: a missing, short or malformed key, or one that does not open the stored tokens, stops it naming the option and never the value", async () => {
      await boundCard()
      const short = Buffer.from("too short a key").toString("base64")
      const wrong = randomBytes(32).toString("base64")
      const cases: Array<[unknown, string]> = [
        [undefined, "tokenKeys: is required"],
        [{ activeTokenKeyId: "old" }, "tokenKeys: is required"],
        [{ tokenKeys: { old: undefined }, activeTokenKeyId: "old" }, "tokenKeys.old: is required: 32 random bytes in base64"],
        [{ tokenKeys: { old: short }, activeTokenKeyId: "old" }, "tokenKeys.old: must be 32 random bytes in base64"],
        [{ tokenKeys: { old: "not base64 at all!" }, activeTokenKeyId: "old" }, "tokenKeys.old: must be 32 random bytes in base64"],
        [{ tokenKeys: { old: OLD_KEY } }, "activeTokenKeyId: is required"],
        [{ tokenKeys: { old: OLD_KEY }, activeTokenKeyId: "new" }, "activeTokenKeyId: must name one of the keys in tokenKeys"],
        [{ tokenKeys: { old: wrong }, activeTokenKeyId: "old" }, 'tokenKeys.old: does not open the tokens stored under "old"'],
      ]
      for (const [options, message] of cases) {
        const error = await boot(options).then(
          () => undefined,
          (e: Error) => e
        )
        expect(error?.message).toContain("medusa-payment-tw saved cards (module tw_saved_card): invalid options: ")
        expect(error?.message).toContain(message)
        for (const secret of [short, wrong, OLD_KEY, "not base64 at all!", TOKEN]) {
          expect(error?.message).not.toContain(secret)
        }
      }
      // The right keys pass, also with a new key added in front.
      await expect(boot(oldOnly)).resolves.toBeUndefined()
      await expect(boot(rotated)).resolves.toBeUndefined()
    })
  },
})

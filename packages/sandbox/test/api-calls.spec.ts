import { startTestSandbox, type TestSandbox } from "./helpers"

/** The control API's tally of authenticated API calls, for tests that count a store's reads. */
describe("GET /_sandbox/api-calls", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => sb.control("POST", "/reset"))

  const calls = async (query = "") => (await sb.control("GET", `/api-calls${query}`)).json.apiCalls as Array<Record<string, unknown>>

  it("counts each endpoint per API and merchant, by route template", async () => {
    const { id } = await sb.checkout()
    await sb.api("GET", `/transactions/${id}`)
    await sb.api("GET", `/transactions/${id}`)
    await sb.api("GET", "/transactions/no-such-id")
    expect(await calls("?api=hosted")).toEqual(
      expect.arrayContaining([
        { api: "hosted", merchantId: sb.merchantId, endpoint: "POST /checkout", calls: 1 },
        { api: "hosted", merchantId: sb.merchantId, endpoint: "GET /transactions/{id}", calls: 3 },
      ])
    )
    expect(await calls("?api=embedded")).toEqual([])
  })

  it("does not count calls refused before authentication", async () => {
    await sb.api("GET", "/transactions/x", undefined, { authorization: "Bearer wrong" })
    await sb.api("GET", "/transactions/x", undefined, { authorization: null })
    expect(await calls()).toEqual([])
  })

  it("counts calls answered with an injected fault and filters by merchant", async () => {
    expect((await sb.control("POST", "/faults", { kind: "http500", endpoint: "GET /transactions/{id}" })).status).toBe(201)
    expect((await sb.api("GET", "/transactions/x")).status).toBe(500)
    expect(await calls(`?merchantId=${sb.merchantId}`)).toEqual([{ api: "hosted", merchantId: sb.merchantId, endpoint: "GET /transactions/{id}", calls: 1 }])
    expect(await calls("?merchantId=someone-else")).toEqual([])
  })

  it("is cleared by a reset", async () => {
    await sb.checkout()
    await sb.control("POST", "/reset")
    expect(await calls()).toEqual([])
  })
})

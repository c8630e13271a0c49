import { Receiver, startTestSandbox, type TestSandbox } from "./helpers"

/** Spec 6.1: delivery, 3 attempts, 10 s wait per attempt, retries; notification faults. */

describe("notification delivery", () => {
  let sb: TestSandbox
  let receiver: Receiver

  beforeEach(async () => {
    receiver = await Receiver.start()
  })
  afterEach(async () => {
    await sb?.close()
    await receiver.close()
  })

  async function start(options: Parameters<typeof startTestSandbox>[0] = {}) {
    sb = await startTestSandbox({ notifyUrl: receiver.url, ...options })
  }

  /** Pays a checkout and waits for the deliveries due now; returns the transaction id. */
  async function payOne(orderId = "order-n") {
    const { id } = await sb.paidCheckout({ orderId })
    await sb.settle()
    return id
  }

  it("waits 10 000 ms per attempt by default", async () => {
    await start()
    expect(sb.handle.notificationTimeoutMs).toBe(10_000)
    expect((await sb.control("GET", "/settings")).json.notificationTimeoutMs).toBe(10_000)
  })

  it("POSTs the JSON body with only Content-Type: application/json (no signature, id or credential)", async () => {
    await start()
    const id = await payOne()
    const [delivery] = await sb.notifications()
    expect(receiver.received).toHaveLength(1)
    const [got] = receiver.received
    expect(got.headers["content-type"]).toBe("application/json")
    const identifying = Object.keys(got.headers).filter((h) => !["host", "content-type", "content-length", "connection", "transfer-encoding"].includes(h))
    expect(identifying).toEqual([])
    expect(got.body).toEqual(delivery.body)
    expect(got.body.id).toBe(id)
    expect(delivery.state).toBe("delivered")
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, status: 200, timedOut: false })])
  })

  it("delivers asynchronously: the API call does not wait for the receiver", async () => {
    await start({ notificationTimeoutMs: 3_000 })
    receiver.respond = () => "hang"
    const { id } = await sb.checkout()
    const started = Date.now()
    const paid = await sb.payCard(`/checkout/${id}`)
    expect(paid.status).toBe(303)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("re-sends after a non-2xx answer: 3 attempts (now, +1 min, +5 min), then stops for good", async () => {
    await start()
    receiver.respond = () => 500
    await payOne()
    await sb.settle()
    expect(receiver.received).toHaveLength(1)
    await sb.advance(59)
    expect(receiver.received).toHaveLength(1)
    await sb.advance(1)
    expect(receiver.received).toHaveLength(2)
    await sb.advance(299)
    expect(receiver.received).toHaveLength(2)
    await sb.advance(1)
    expect(receiver.received).toHaveLength(3)
    await sb.advance(7 * 86400)
    expect(receiver.received).toHaveLength(3)
    const [delivery] = await sb.notifications()
    expect(delivery.state).toBe("failed")
    expect(delivery.attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
    ])
    const times = delivery.attempts.map((a) => Date.parse(a.at))
    expect(Math.round((times[1] - times[0]) / 1000)).toBe(60)
    expect(Math.round((times[2] - times[1]) / 1000)).toBe(300)
    // every attempt carries the same body
    expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1)
  })

  it("counts a receiver that does not answer within the wait as a time-out and re-sends", async () => {
    await start({ notificationTimeoutMs: 200 })
    receiver.respond = () => "hang"
    await payOne()
    await sb.advance(360)
    expect(receiver.received).toHaveLength(3)
    const [delivery] = await sb.notifications()
    expect(delivery.state).toBe("failed")
    for (const attempt of delivery.attempts) {
      expect(attempt.timedOut).toBe(true)
      expect(attempt.status).toBeUndefined()
      expect(attempt.error).toContain("200 ms")
      expect(attempt.durationMs).toBeGreaterThanOrEqual(190)
      expect(attempt.durationMs).toBeLessThan(2_000)
    }
  })

  it("stops re-sending once the receiver answers 2xx", async () => {
    await start()
    receiver.respond = (_n, index) => (index === 0 ? 503 : 204)
    await payOne()
    await sb.advance(3600)
    expect(receiver.received).toHaveLength(2)
    const [delivery] = await sb.notifications()
    expect(delivery.state).toBe("delivered")
    expect(delivery.attempts.map((a) => a.status)).toEqual([503, 204])
  })

  it("records notifications as undeliverable when no address is configured", async () => {
    await start({ notifyUrl: null })
    await payOne()
    const [delivery] = await sb.notifications()
    expect(delivery.state).toBe("undeliverable")
    expect(delivery.attempts).toEqual([])
    expect(receiver.received).toHaveLength(0)
  })

  it("runs due deliveries on the real-time ticker without any clock move", async () => {
    await start({ tickMs: 50 })
    await sb.control("POST", "/faults", { kind: "delay", seconds: 1 })
    const { id } = await sb.checkout()
    await sb.payCard(`/checkout/${id}`)
    expect(receiver.received).toHaveLength(0)
    const deadline = Date.now() + 3_000
    while (receiver.received.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(receiver.received).toHaveLength(1)
  })

  describe("faults", () => {
    it("drop: the notification is never sent; the next one is", async () => {
      await start()
      const fault = await sb.control("POST", "/faults", { kind: "drop", purpose: "charge" })
      expect(fault.status).toBe(201)
      await payOne("a")
      await payOne("b")
      await sb.advance(3600)
      expect(receiver.received.map((r) => r.body.orderId)).toEqual(["b"])
      const list = await sb.notifications()
      expect(list.map((d) => [d.state, d.fault ?? null])).toEqual([
        ["dropped", "drop"],
        ["delivered", null],
      ])
    })

    it("duplicate: the same body arrives twice", async () => {
      await start()
      await sb.control("POST", "/faults", { kind: "duplicate" })
      await payOne()
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[0].raw).toBe(receiver.received[1].raw)
      const [, copy] = await sb.notifications()
      expect(copy.duplicateOf).toBeDefined()
    })

    it("delay: the first attempt waits the given seconds on the sandbox clock", async () => {
      await start()
      await sb.control("POST", "/faults", { kind: "delay", seconds: 30 })
      await payOne()
      await sb.advance(29)
      expect(receiver.received).toHaveLength(0)
      await sb.advance(1)
      expect(receiver.received).toHaveLength(1)
    })

    it("reorder: the notification is overtaken by the next one (or goes out after 60 s alone)", async () => {
      await start({ defaultMerchant: { newEventOption: true } })
      await sb.control("POST", "/faults", { kind: "reorder", purpose: "charge" })
      const { id, transactionHid } = await sb.paidCheckout()
      await sb.settle()
      expect(receiver.received).toHaveLength(0)
      // the refund notification overtakes the held charge notification
      expect((await sb.api("POST", `/refunds/${transactionHid}`, { merchantId: "demo-shop" })).json.code).toBe("S0000")
      await sb.settle()
      expect(receiver.received.map((r) => r.body.purpose)).toEqual(["refund", "charge"])
      expect(receiver.received[1].body.id).toBe(id)

      await sb.control("POST", "/faults", { kind: "reorder" })
      await payOne("alone")
      await sb.advance(59)
      expect(receiver.received).toHaveLength(2)
      await sb.advance(1)
      expect(receiver.received[2].body.orderId).toBe("alone")
    })

    it("targets a purpose or a merchant only, and is used up after count hits", async () => {
      await start()
      await sb.control("POST", "/faults", { kind: "drop", purpose: "token" })
      await sb.control("POST", "/faults", { kind: "drop", merchantId: "someone-else" })
      await sb.control("POST", "/faults", { kind: "duplicate", purpose: "charge", count: 2 })
      await payOne("x")
      await payOne("y")
      await payOne("z")
      expect(receiver.received.map((r) => r.body.orderId)).toEqual(["x", "x", "y", "y", "z"])
      const faults = (await sb.control("GET", "/faults")).json.faults as { kind: string }[]
      expect(faults.map((f) => f.kind)).toEqual(["drop", "drop"])
      await sb.control("DELETE", "/faults")
      expect((await sb.control("GET", "/faults")).json.faults).toEqual([])
    })
  })
})

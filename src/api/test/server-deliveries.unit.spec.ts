import { holdDelivery, MAX_HELD } from "../server-deliveries"

const SETTINGS = { delayMs: 5_000, serverConcurrency: 2 }
let keys = 0
/** Each test its own provider key: the shares outlive a test. */
const nextKey = () => `hosted-checkout_test-${++keys}`

/** Lets the promise chains of the handled deliveries run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve()
  }
}

describe("holdDelivery (the server's own share of deliveries)", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("handles a delivery after the delay, and does not queue it again when it succeeds", async () => {
    const handled: number[] = []
    const requeue = jest.fn(async () => undefined)
    const logger = { error: jest.fn() }
    expect(holdDelivery(nextKey(), SETTINGS, { handle: async () => void handled.push(Date.now()), requeue, logger })).toBe(true)

    jest.advanceTimersByTime(SETTINGS.delayMs - 1)
    await settle()
    expect(handled).toHaveLength(0)
    jest.advanceTimersByTime(1)
    await settle()
    expect(handled).toHaveLength(1)
    expect(requeue).not.toHaveBeenCalled()
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("runs at most serverConcurrency deliveries of a provider at once", async () => {
    const key = nextKey()
    let running = 0
    let most = 0
    const finish: Array<() => void> = []
    const handle = () => {
      running++
      most = Math.max(most, running)
      return new Promise<void>((resolve) => finish.push(() => (running--, resolve())))
    }
    for (let i = 0; i < 5; i++) {
      holdDelivery(key, SETTINGS, { handle, requeue: async () => undefined, logger: { error: jest.fn() } })
    }
    jest.advanceTimersByTime(SETTINGS.delayMs)
    await settle()
    expect(running).toBe(2)
    while (finish.length) {
      finish.shift()!()
      await settle()
    }
    expect(most).toBe(2)
    expect(running).toBe(0)
  })

  it("queues a delivery again when handling it fails", async () => {
    const requeue = jest.fn(async () => undefined)
    const logger = { error: jest.fn() }
    holdDelivery(nextKey(), SETTINGS, { handle: async () => Promise.reject(new Error("lock time-out")), requeue, logger })
    jest.advanceTimersByTime(SETTINGS.delayMs)
    await settle()
    expect(requeue).toHaveBeenCalledTimes(1)
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("logs the class of a failed re-queue, never its message, and lets the next delivery through", async () => {
    const key = nextKey()
    const logger = { error: jest.fn() }
    // A queue error may quote what it was writing: the payload, card token fields included.
    const queueError = new TypeError("could not write {\"token\":\"tok_secret_4242\"}")
    holdDelivery(key, SETTINGS, {
      handle: async () => Promise.reject(new Error("database gone")),
      requeue: async () => Promise.reject(queueError),
      logger,
    })
    jest.advanceTimersByTime(SETTINGS.delayMs)
    await settle()
    expect(logger.error).toHaveBeenCalledTimes(1)
    const line = String(logger.error.mock.calls[0][0])
    expect(line).toContain(key)
    expect(line).toContain("(TypeError)")
    expect(line).toContain("reconciliation job")
    expect(line).not.toContain("tok_secret")
    expect(line).not.toContain("database gone")

    // The failure gave its slot back.
    const handled = jest.fn(async () => undefined)
    expect(holdDelivery(key, SETTINGS, { handle: handled, requeue: async () => undefined, logger })).toBe(true)
    jest.advanceTimersByTime(SETTINGS.delayMs)
    await settle()
    expect(handled).toHaveBeenCalledTimes(1)
  })

  it(`holds at most ${MAX_HELD} deliveries, leaves the rest to the workers, and takes new ones once they are done`, async () => {
    const key = nextKey()
    const handle = jest.fn(async () => undefined)
    const held = Array.from({ length: MAX_HELD + 5 }, () => holdDelivery(key, SETTINGS, { handle, requeue: async () => undefined, logger: { error: jest.fn() } }))
    expect(held.filter(Boolean)).toHaveLength(MAX_HELD)
    expect(held.slice(MAX_HELD)).toEqual([false, false, false, false, false])

    jest.advanceTimersByTime(SETTINGS.delayMs)
    for (let i = 0; i < MAX_HELD; i++) {
      await settle()
      if (handle.mock.calls.length === MAX_HELD) {
        break
      }
    }
    expect(handle).toHaveBeenCalledTimes(MAX_HELD)
    await settle()
    expect(holdDelivery(key, SETTINGS, { handle, requeue: async () => undefined, logger: { error: jest.fn() } })).toBe(true)
  })
})

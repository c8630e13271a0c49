import { InMemoryLockingProvider } from "@medusajs/locking/dist/providers/in-memory"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { type DeliveryOnce, handleDeliveryOnce } from "../delivery-claims"
import { TW_PAYMENT_SWEEP_MODULE } from "../../modules/tw-payment-sweep"

/**
 * The `tw_payment_sweep` module's markers as they behave in its table (its module test checks the
 * table): a key until its expiry, set once, a window extended to the later expiry.
 */
function markersInMemory() {
  const rows = new Map<string, number>()
  const live = (key: string) => (rows.get(key) ?? 0) > Date.now()
  return {
    rows,
    hasMarker: jest.fn(async (key: string) => live(key)),
    setMarkerOnce: jest.fn(async (key: string, ms: number) => {
      if (live(key)) {
        return false
      }
      rows.set(key, Date.now() + ms)
      return true
    }),
    extendMarker: jest.fn(async (key: string, ms: number) => {
      rows.set(key, Math.max(rows.get(key) ?? 0, Date.now() + ms))
    }),
  }
}

const logger = { warn: jest.fn(), info: jest.fn() }

/** A container whose locking module is the in-memory one a single-process store uses, with the plugin's markers (unless `markers: null`). */
const storeWithLocks = ({ markers = markersInMemory() }: { markers?: ReturnType<typeof markersInMemory> | null } = {}) => {
  const registered: Record<string, unknown> = { [Modules.LOCKING]: new InMemoryLockingProvider(), [ContainerRegistrationKeys.LOGGER]: logger }
  if (markers) {
    registered[TW_PAYMENT_SWEEP_MODULE] = markers
  }
  return { resolve: (key: string) => registered[key], hasRegistration: (key: string) => key in registered } as never
}

/** A handler whose read is answered when the test says so, with the status it says. */
function pendingRead() {
  let answer: (status: string) => void = () => undefined
  const read = new Promise<string>((resolve) => (answer = resolve))
  const started = jest.fn()
  return { read, answer: (status: string) => answer(status), started }
}

const copy = (key: string, handle: DeliveryOnce["handle"], extra: Partial<DeliveryOnce> = {}): DeliveryOnce => ({ provider: "hosted-checkout_test", scope: "tx1", key, handle, ...extra })
/** An unsigned delivery: done under the status its read returned. */
const readAs = (status: string) => jest.fn(async () => [`tx1:${status}`])

describe("handleDeliveryOnce (delivery claims on verified facts)", () => {
  it("a forgery whose read refutes it does not make the real delivery a repeat; the real one's repeats cost nothing", async () => {
    const container = storeWithLocks()
    const forged = readAs("initiated")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", forged))).toBe("handled")
    const real = readAs("charged")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", real))).toBe("handled")
    const repeat = readAs("charged")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", repeat))).toBe("repeat")
    expect([forged, real, repeat].map((handle) => handle.mock.calls.length)).toEqual([1, 1, 0])
  })

  it("a real delivery that arrives while a forgery is in flight waits for it, then is read", async () => {
    const container = storeWithLocks()
    const forgery = pendingRead()
    const forged = handleDeliveryOnce(
      container,
      copy("tx1:charged", async () => {
        forgery.started()
        return [`tx1:${await forgery.read}`]
      })
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(forgery.started).toHaveBeenCalled()
    const realHandle = readAs("charged")
    const real = handleDeliveryOnce(container, copy("tx1:charged", realHandle))
    await new Promise((resolve) => setImmediate(resolve))
    expect(realHandle).not.toHaveBeenCalled()

    forgery.answer("initiated")
    expect(await forged).toBe("handled")
    expect(await real).toBe("handled")
    expect(realHandle).toHaveBeenCalledTimes(1)
  })

  it("a copy that arrives while the real delivery is in flight waits, then skips it as a repeat without a read", async () => {
    const container = storeWithLocks()
    const first = pendingRead()
    const handled = handleDeliveryOnce(container, copy("tx1:charged", async () => [`tx1:${await first.read}`]))
    const secondHandle = readAs("charged")
    const second = handleDeliveryOnce(container, copy("tx1:charged", secondHandle))
    first.answer("charged")
    expect(await handled).toBe("handled")
    expect(await second).toBe("repeat")
    expect(secondHandle).not.toHaveBeenCalled()
  })

  it("the server's copy leaves a busy payment to the queued copy at once", async () => {
    const container = storeWithLocks()
    const first = pendingRead()
    const handled = handleDeliveryOnce(container, copy("tx1:charged", async () => [`tx1:${await first.read}`]))
    const serverHandle = readAs("charged")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", serverHandle, { queuedElsewhere: true }))).toBe("busy")
    first.answer("charged")
    expect(await handled).toBe("handled")
    expect(serverHandle).not.toHaveBeenCalled()
  })

  it("a failed run marks nothing, so the next copy is handled", async () => {
    const container = storeWithLocks()
    await expect(handleDeliveryOnce(container, copy("tx1:charged", async () => Promise.reject(new Error("service down"))))).rejects.toThrow("service down")
    const retry = readAs("charged")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", retry))).toBe("handled")
    expect(retry).toHaveBeenCalledTimes(1)
  })

  it("marks only what the read verified, once per key, as rows that expire in two days", async () => {
    const markers = markersInMemory()
    const container = storeWithLocks({ markers })
    await handleDeliveryOnce(container, copy("tx1:charged", readAs("initiated")))
    expect([...markers.rows.keys()]).toEqual(["delivery:hosted-checkout_test:tx1:initiated"])
    const expiry = markers.rows.get("delivery:hosted-checkout_test:tx1:initiated")! - Date.now()
    expect(expiry).toBeGreaterThan(48 * 3600_000 - 5_000)
    expect(expiry).toBeLessThanOrEqual(48 * 3600_000)
  })

  it("a marker the store could not keep leaves the delivery handled; the next copy is read", async () => {
    const markers = markersInMemory()
    markers.setMarkerOnce.mockRejectedValueOnce(new Error("database gone"))
    const container = storeWithLocks({ markers })
    expect(await handleDeliveryOnce(container, copy("tx1:charged", readAs("charged")))).toBe("handled")
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("a delivery marker was not stored"))
    const next = readAs("charged")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", next))).toBe("handled")
    expect(await handleDeliveryOnce(container, copy("tx1:charged", readAs("charged")))).toBe("repeat")
    expect(next).toHaveBeenCalledTimes(1)
  })

  it("without the plugin's module every copy is read and handled (nothing is skipped, nothing breaks)", async () => {
    const container = storeWithLocks({ markers: null })
    const handles = [readAs("charged"), readAs("charged")]
    for (const handle of handles) {
      expect(await handleDeliveryOnce(container, copy("tx1:charged", handle, { delayMs: 1_500 }))).toBe("handled")
    }
    expect(handles.map((handle) => handle.mock.calls.length)).toEqual([1, 1])
  })

  describe("with the intake's delay (each copy handled at least that long after it arrived)", () => {
    const delayMs = 1_500
    const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    it("bodies naming one id cost one read per delay: copies handled within it are covered, a signed one never is, the next delay reads again", async () => {
      const container = storeWithLocks()
      const first = readAs("initiated")
      expect(await handleDeliveryOnce(container, copy("tx1:charged", first, { delayMs }))).toBe("handled")
      const forged = [readAs("initiated"), readAs("initiated")]
      for (const handle of forged) {
        expect(await handleDeliveryOnce(container, copy("tx1:charged", handle, { delayMs }))).toBe("covered")
      }
      const signed = jest.fn(async () => ["evt_1"])
      expect(await handleDeliveryOnce(container, copy("evt_1", signed, { delayMs, signed: true }))).toBe("handled")
      await after(delayMs)
      const later = readAs("charged")
      expect(await handleDeliveryOnce(container, copy("tx1:charged", later, { delayMs }))).toBe("handled")
      expect([first, ...forged, signed, later].map((handle) => handle.mock.calls.length)).toEqual([1, 0, 0, 1, 1])
    })

    it("a failed read covers nothing: the next copy reads", async () => {
      const container = storeWithLocks()
      await expect(handleDeliveryOnce(container, copy("tx1:charged", async () => Promise.reject(new Error("service down")), { delayMs }))).rejects.toThrow("service down")
      const next = readAs("charged")
      expect(await handleDeliveryOnce(container, copy("tx1:charged", next, { delayMs }))).toBe("handled")
      expect(next).toHaveBeenCalledTimes(1)
    })

    it("without a delay every copy reads", async () => {
      const container = storeWithLocks()
      const handles = [readAs("initiated"), readAs("initiated")]
      for (const handle of handles) {
        expect(await handleDeliveryOnce(container, copy("tx1:charged", handle, { delayMs: 0 }))).toBe("handled")
      }
      expect(handles.map((handle) => handle.mock.calls.length)).toEqual([1, 1])
    })
  })
})

import { PaymentActions } from "@medusajs/framework/utils"
import type { ListedPage, ListedPayment } from "../../../../providers/core/payment-api"
import { concludeSweep, planSweep, runSweep, SWEEP_WINDOW_MS, type SweepListing, type SweepOptions, type SweepRunner } from "../service-sweep"
import type { SweepState } from "../../../../reconciliation/sweep-cursors"

const NOW = Date.parse("2026-11-22T10:00:00Z")
const MIN = 60_000

/** A payment of the service's list, `ageMin` minutes old. */
function listed(id: string, ageMin: number, changes: Partial<ListedPayment> & { sessionId?: string; paid?: boolean } = {}): ListedPayment {
  const { sessionId = `payses_${id}`, paid = true, ...rest } = changes
  return {
    observation: {
      serviceId: id,
      label: `transaction ${id}`,
      sessionId,
      amount: 500,
      status: paid ? "charged" : "initiated",
      action: paid ? PaymentActions.SUCCESSFUL : PaymentActions.REQUIRES_MORE,
      paid,
      returned: false,
      facts: {},
    },
    createdAt: NOW - ageMin * MIN,
    holdsMoney: paid,
    open: false,
    ...rest,
  }
}

/** A service whose list is `pages`, each read at the position `p<index>` (the first at undefined). */
function harness(pages: ListedPayment[][], store: Record<string, { status: string; data: Record<string, unknown> }> = {}) {
  const at = (i: number) => (i === 0 ? undefined : `p${i}`)
  const reads: Array<string | undefined> = []
  const processed: string[] = []
  const failing = new Set<string>()
  const deps: SweepListing & SweepRunner = {
    api: {
      idField: "transactionId",
      listPayments: async (position): Promise<ListedPage> => {
        reads.push(position)
        const index = position === undefined ? 0 : Number(position.slice(1))
        return { payments: pages[index] ?? [], at: at(index), next: index + 1 < pages.length ? at(index + 1) : undefined }
      },
    },
    sessions: async (ids) => ids.filter((id) => id in store).map((id) => ({ id, ...store[id] })),
    process: async (id) => {
      processed.push(id)
      if (failing.has(id)) {
        throw new Error(`completion of ${id} failed`)
      }
      return true
    },
    pause: async () => {},
    logger: { warn: jest.fn() },
  }
  return { deps, reads, processed, failing }
}

const fresh: SweepState = { handled: {} }

/**
 * What the workflow `sweep-tw-service-payments` does between reading and
 * advancing the cursor, without Medusa: the walk, the runs, the new state.
 * The plan crosses a step boundary as JSON, as the workflow engine keeps it.
 */
async function sweep(state: SweepState, deps: SweepListing & SweepRunner, options: SweepOptions) {
  const plan = JSON.parse(JSON.stringify(await planSweep(state, deps, options)))
  return concludeSweep(plan, await runSweep(plan.due, deps))
}

describe("the service sweep", () => {
  it("runs every paid payment the store does not hold, and none it holds", async () => {
    const { deps, processed } = harness([[listed("gone", 30), listed("moved", 20), listed("held", 10), listed("unpaid", 5, { paid: false })]], {
      payses_moved: { status: "pending", data: { transactionId: "another" } },
      payses_held: { status: "captured", data: { transactionId: "held" } },
    })
    const outcome = await sweep(fresh, deps, { budget: 50, now: NOW, label: "hosted" })
    expect(processed).toEqual(["gone", "moved"])
    expect(outcome).toMatchObject({ processed: 2, changed: 2, failed: 0, pages: 1, complete: true })
  })

  it("leaves alone what another system of the merchant created, what the store's walk just ran, and what is older than the window", async () => {
    const old = SWEEP_WINDOW_MS / MIN + 5
    const { deps, processed } = harness([[listed("pos", 10, { sessionId: "order-77" }), listed("walked", 10), listed("ancient", old), listed("new", 1)]])
    await sweep(fresh, deps, { budget: 50, now: NOW, skip: new Set(["walked"]), label: "hosted" })
    expect(processed).toEqual(["new"])
  })

  it("runs a payment once: the next run skips it, even though the service still lists it as paid (a cvs orphan left to the merchant)", async () => {
    const { deps, processed } = harness([[listed("orphan", 10)]])
    const first = await sweep(fresh, deps, { budget: 50, now: NOW, label: "hosted" })
    expect(first.state.handled.orphan).toBe(NOW - 10 * MIN + SWEEP_WINDOW_MS)
    await sweep(first.state, deps, { budget: 50, now: NOW + MIN, label: "hosted" })
    expect(processed).toEqual(["orphan"])
  })

  it("runs a failed payment again next run, from its page", async () => {
    const { deps, processed, failing, reads } = harness([[listed("a", 50)], [listed("b", 40)], [listed("c", 30)]])
    failing.add("b")
    const first = await sweep(fresh, deps, { budget: 50, now: NOW, label: "hosted" })
    expect(first).toMatchObject({ failed: 1, processed: 2, state: { position: "p1" } })
    failing.clear()
    reads.length = 0
    await sweep(first.state, deps, { budget: 50, now: NOW + MIN, label: "hosted" })
    expect(reads).toEqual(["p1", "p2"])
    expect(processed).toEqual(["a", "b", "c", "b"])
  })

  it("resumes at the page of the oldest payment that can still change, else at the page of the newest", async () => {
    const pages = [[listed("a", 90, { paid: false })], [listed("b", 20, { paid: false, open: true })], [listed("c", 10, { paid: false })], [listed("d", 5, { paid: false })]]
    const open = harness(pages)
    expect((await sweep(fresh, open.deps, { budget: 50, now: NOW, label: "hosted" })).state.position).toBe("p1")

    const settled = harness(pages.map((page) => page.map((p) => ({ ...p, open: false }))))
    expect((await sweep({ position: "p1", handled: {} }, settled.deps, { budget: 50, now: NOW, label: "hosted" })).state.position).toBe("p3")
    expect(settled.reads).toEqual(["p1", "p2", "p3"])
  })

  it("keeps its position on an empty list, and moves to the last page read when nothing is inside the window", async () => {
    const empty = harness([[]])
    expect((await sweep(fresh, empty.deps, { budget: 50, now: NOW, label: "hosted" })).state.position).toBeUndefined()
    const old = SWEEP_WINDOW_MS / MIN + 5
    const history = harness([[listed("x", old)], [listed("y", old)]])
    expect((await sweep(fresh, history.deps, { budget: 50, now: NOW, label: "hosted" })).state.position).toBe("p1")
  })

  it("spends at most its budget of requests (pages and runs), and continues next run where it stopped", async () => {
    const { deps, reads, processed } = harness([[listed("a", 50), listed("b", 49)], [listed("c", 40)], [listed("d", 30)]])
    const first = await sweep(fresh, deps, { budget: 2, now: NOW, label: "hosted" })
    // One page and one run; "b" is on the same page, so the page is read again.
    expect(first).toMatchObject({ complete: false, pages: 1, processed: 1, state: { position: undefined } })
    expect(processed).toEqual(["a"])
    const second = await sweep(first.state, deps, { budget: 4, now: NOW, label: "hosted" })
    expect(processed).toEqual(["a", "b", "c"])
    expect(second).toMatchObject({ complete: false, state: { position: "p2" } })
    const third = await sweep(second.state, deps, { budget: 3, now: NOW, label: "hosted" })
    expect(processed).toEqual(["a", "b", "c", "d"])
    expect(third.complete).toBe(true)
    expect(reads).toEqual([undefined, undefined, "p1", "p2"])
  })

  it("does not run a payment listed twice in one walk twice (a repeated second in the embedded list)", async () => {
    const { deps, processed } = harness([[listed("a", 10), listed("b", 10)], [listed("b", 10), listed("c", 10)]])
    await sweep(fresh, deps, { budget: 50, now: NOW, label: "embedded" })
    expect(processed).toEqual(["a", "b", "c"])
  })

  it("forgets handled payments once they leave the window", async () => {
    const { deps } = harness([[]])
    const state = { handled: { gone: NOW - 1, kept: NOW + MIN } }
    expect((await sweep(state, deps, { budget: 50, now: NOW, label: "hosted" })).state.handled).toEqual({ kept: NOW + MIN })
  })

  it("keeps its position when the service cannot be listed", async () => {
    const { deps } = harness([[]])
    deps.api.listPayments = async () => {
      throw new Error("socket hang up")
    }
    const outcome = await sweep({ position: "p4", handled: {} }, deps, { budget: 50, now: NOW, label: "hosted" })
    expect(outcome).toMatchObject({ complete: false, state: { position: "p4" } })
    expect(deps.logger.warn).toHaveBeenCalledWith(expect.stringContaining("socket hang up"))
  })

  it("of two payments the service created in the same second, the one met first in the walk keeps the next run's position (a failed run before a later open payment)", async () => {
    const same = 20
    const { deps, failing } = harness([[listed("old", 60, { paid: false })], [listed("a", same)], [listed("b", same, { paid: false, open: true })]])
    failing.add("a")
    const outcome = await sweep(fresh, deps, { budget: 50, now: NOW, label: "hosted" })
    expect(outcome).toMatchObject({ failed: 1, complete: true, state: { position: "p1" } })
  })
})

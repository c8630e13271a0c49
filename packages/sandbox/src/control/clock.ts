import { z } from "zod"
import type { SandboxClock } from "../clock"
import type { Scheduler } from "../scheduler"
import { ControlError, type ControlRouter, parseBody, reply } from "./routes"

const setSchema = z.strictObject({ now: z.iso.datetime({ offset: true }) })
const advanceSchema = z.strictObject({ seconds: z.number().min(0).max(10 * 366 * 24 * 3600) })

/**
 * The sandbox clock. Moving it runs all work due up to the new time, in time
 * order, before answering (so `advance` with 0 seconds also waits for work due now).
 */
export function addClockRoutes(router: ControlRouter, clock: SandboxClock, scheduler: Scheduler): void {
  const view = () => ({ now: clock.now().toISOString(), offsetMs: clock.offset, pendingJobs: scheduler.pending().length })
  router
    .add("GET", "/clock", () => reply(view()))
    .add("PUT", "/clock", async (req) => {
      const target = Date.parse(parseBody(setSchema, req.body).now)
      if (target < clock.nowMs()) {
        throw new ControlError(409, "the sandbox clock only moves forward")
      }
      await scheduler.advanceTo(target)
      return reply(view())
    })
    .add("POST", "/clock/advance", async (req) => {
      const { seconds } = parseBody(advanceSchema, req.body)
      await scheduler.advanceTo(clock.nowMs() + seconds * 1000)
      return reply(view())
    })
    .add("GET", "/jobs", () => reply({ jobs: scheduler.pending().map((j) => ({ ...j, at: new Date(j.at).toISOString() })) }))
}

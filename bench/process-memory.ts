// Resident memory of the Medusa processes over a burst round: before, at its peak and after the idle wait.
import { execFileSync } from "node:child_process"
import { liveHeapMb } from "./heap-after-gc"
import { treeStats } from "./process-cpu"

const PAGE_BYTES = (() => {
  try {
    return Number(execFileSync("getconf", ["PAGESIZE"], { encoding: "utf8" }).trim()) || 4096
  } catch {
    return 4096
  }
})()
const SAMPLE_MS = 1_000

/** MB resident of one process and its descendants. */
export function treeRssMb(pid: number): number {
  return (treeStats([pid]).reduce((pages, stat) => pages + stat.rssPages, 0) * PAGE_BYTES) / 2 ** 20
}

export interface RoundMemory {
  /** MB per role (`shared`, `server-1`, …). */
  before: Record<string, number>
  peak: Record<string, number>
  after: Record<string, number>
  /** MB of V8 heap still in use after a forced full collection, read after `after` (undefined: inspector not reached). */
  liveHeap: Record<string, number | undefined>
}

/**
 * Samples every process's RSS each second from now until `finish`, which takes
 * the "after" reading and then each process's live heap: call it once the round's idle wait is over.
 */
export function watchMemory(processes: () => Array<{ role: string; pid: number }>) {
  const read = () => Object.fromEntries(processes().map((p) => [p.role, treeRssMb(p.pid)]))
  const before = read()
  const peak = { ...before }
  const timer = setInterval(() => {
    for (const [role, mb] of Object.entries(read())) {
      peak[role] = Math.max(peak[role] ?? 0, mb)
    }
  }, SAMPLE_MS)
  return {
    async finish(): Promise<RoundMemory> {
      clearInterval(timer)
      const after = read()
      for (const [role, mb] of Object.entries(after)) {
        peak[role] = Math.max(peak[role] ?? 0, mb)
      }
      const liveHeap: Record<string, number | undefined> = {}
      // One at a time: each opens the inspector on the same port.
      for (const { role, pid } of processes()) {
        liveHeap[role] = await liveHeapMb(pid).catch(() => undefined)
      }
      return { before, peak, after, liveHeap }
    },
  }
}

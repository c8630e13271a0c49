// CPU time of a process tree from /proc, for "Medusa CPU seconds per order".
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

/** Clock ticks per second of /proc/<pid>/stat times (100 on Linux almost everywhere; asked once). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

interface Stat {
  pid: number
  /** The command name (comm), without its parentheses. */
  name: string
  ppid: number
  /** utime + stime of the process itself, in ticks. */
  own: number
  /** cutime + cstime: children it has waited for, in ticks. */
  reaped: number
  /** Resident set size, in pages. */
  rssPages: number
}

/** Fields after the command name, which may hold spaces and parentheses: split after the last ")". */
function readStat(pid: number): Stat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8")
  } catch {
    return undefined
  }
  const close = text.lastIndexOf(")")
  const fields = text.slice(close + 2).split(" ")
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
  const at = (field: number) => Number(fields[field - 3])
  return { pid, name: text.slice(text.indexOf("(") + 1, close), ppid: at(4), own: at(14) + at(15), reaped: at(16) + at(17), rssPages: at(24) }
}

function allStats(): Stat[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readStat(Number(name)) ?? [])
}

/**
 * CPU seconds used so far by each root and every live descendant, plus the
 * children they have already reaped. A process that is gone is no longer
 * counted, so take differences over a phase in which the roots live.
 */
export function treeCpuSeconds(roots: number[]): number {
  return treeStats(roots).reduce((ticks, stat) => ticks + stat.own + stat.reaped, 0) / TICKS_PER_SECOND
}

/** Each root and every live descendant, read at one moment. */
export function treeStats(roots: number[]): Stat[] {
  const stats = allStats()
  const children = new Map<number, Stat[]>()
  for (const stat of stats) {
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat])
  }
  const tree: Stat[] = []
  const visit = (stat: Stat) => {
    tree.push(stat)
    for (const child of children.get(stat.pid) ?? []) {
      visit(child)
    }
  }
  for (const root of roots) {
    const stat = stats.find((s) => s.pid === root)
    if (stat) {
      visit(stat)
    }
  }
  return tree
}

/**
 * CPU seconds used so far by every process named `name` (PostgreSQL's
 * backends, redis-server), with the children they reaped: the postmaster
 * reaps the backends of closed connections, so those stay counted.
 */
export function namedCpuSeconds(name: string): number {
  return allStats()
    .filter((stat) => stat.name === name)
    .reduce((ticks, stat) => ticks + stat.own + stat.reaped, 0) / TICKS_PER_SECOND
}

/** CPU seconds this process (the harness, and the sandbox it runs in-process) used so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

/**
 * Seconds the machine's cores spent busy so far (user, nice, system, irq and
 * softirq of /proc/stat's first line): PostgreSQL, Redis, the sandbox and
 * this harness included, to tell a saturated machine from a slow process.
 */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number)
  return (user + nice + system + irq + softirq) / TICKS_PER_SECOND
}

// `bench:burst --cpu-profile`: where a phase's Medusa CPU goes, by package, from V8 profiles each Medusa
// process takes of itself (cpu-profile-hook.mjs). Self time only: V8's samples lose async callers, so a
// package's share is where the CPU was spent, not which step asked for it.
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

/** Where this repository's own code runs from (the plugin under test). */
const ROOT = resolve(__dirname, "..")

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>
  samples: number[]
  timeDeltas: number[]
}

/** The environment that loads the hook into each Medusa process. */
export function cpuProfileEnv(dir: string): NodeJS.ProcessEnv {
  mkdirSync(dir, { recursive: true })
  return {
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import ${join(__dirname, "cpu-profile-hook.mjs")}`].filter(Boolean).join(" "),
    TW_BENCH_CPU_PROFILE_DIR: dir,
  }
}

/** Starts and stops the profiles of a set of processes; `stop` answers CPU seconds by category over them all. */
export class CpuProfiler {
  private taken = new Map<number, number>()

  constructor(
    private readonly dir: string,
    private readonly pids: () => number[]
  ) {}

  start(): void {
    for (const pid of this.pids()) {
      process.kill(pid, "SIGUSR2")
    }
  }

  async stop(): Promise<Record<string, number>> {
    const files = this.pids().map((pid) => {
      const n = (this.taken.get(pid) ?? 0) + 1
      this.taken.set(pid, n)
      process.kill(pid, "SIGUSR2")
      return join(this.dir, `${pid}-${n}.cpuprofile`)
    })
    const seconds: Record<string, number> = {}
    for (const file of files) {
      for (let waited = 0; !existsSync(file) && waited < 30_000; waited += 200) {
        await sleep(200)
      }
      if (!existsSync(file)) {
        continue
      }
      for (const [category, s] of Object.entries(selfSeconds(JSON.parse(readFileSync(file, "utf8")) as CpuProfile))) {
        seconds[category] = (seconds[category] ?? 0) + s
      }
    }
    return seconds
  }
}

/** Self time of a profile by category: a package under node_modules, this repository's code, Node, GC. */
function selfSeconds(profile: CpuProfile): Record<string, number> {
  const byNode = new Map(profile.nodes.map((node) => [node.id, categoryOf(node.callFrame)]))
  const seconds: Record<string, number> = {}
  profile.samples.forEach((id, index) => {
    const category = byNode.get(id) ?? "other"
    if (category !== "(idle)") {
      seconds[category] = (seconds[category] ?? 0) + (profile.timeDeltas[index] ?? 0) / 1e6
    }
  })
  return seconds
}

function categoryOf({ functionName, url }: { functionName: string; url: string }): string {
  if (!url) {
    return ["(idle)", "(garbage collector)", "(program)"].includes(functionName) ? functionName : "(native)"
  }
  const path = url.replace(/^file:\/\//, "")
  const inModules = path.lastIndexOf("/node_modules/")
  if (inModules >= 0) {
    const [first, second] = path.slice(inModules + "/node_modules/".length).split("/")
    return first.startsWith("@") ? `${first}/${second}` : first
  }
  if (path.startsWith("node:") || !path.startsWith("/")) {
    return "node"
  }
  return path.startsWith(ROOT) ? "medusa-payment-tw" : "other"
}

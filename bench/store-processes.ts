// The Medusa processes of a bench store, by profile: one `shared` process (default), a `server` and a
// `worker` (production), or the cluster profile's servers behind haproxy and workers (two and two unless said).
import { startCluster, type Cluster } from "../scripts/cluster"
import { startMedusaProcess, type MedusaProcess, type WorkerMode } from "../scripts/medusa-process"
import { freePort } from "../scripts/postgres"

export type Member = MedusaProcess & { role: string }

export interface ClusterShape {
  servers: number
  workers: number
}

export interface StoreProcesses {
  /** Where the store API and /hooks/payment/* answer: the one server, or the balancer. */
  url: string
  list(): Member[]
  /** Boots every process (again, after `kill`). */
  start(env: NodeJS.ProcessEnv): Promise<void>
  /** SIGKILL to every process (a crash: no shutdown), resolved once they are gone. */
  kill(): Promise<void>
  /** SIGKILL to one process, by role (`server-2`, `worker-1`, or the mode outside the cluster profile). */
  killOne(role: string): Promise<void>
  /** Starts one process again on its port. */
  restartOne(role: string): Promise<void>
  /** Servers first (no new requests), then workers. */
  stop(): Promise<void>
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`

/** Picks the ports (the store's address is known before anything boots: the sandbox is pointed at it first). */
export async function storeProcesses(
  profile: "default" | "production" | "cluster",
  { dir, logs, say, shape = { servers: 2, workers: 2 } }: { dir: string; logs: string[]; say: (line: string) => void; shape?: ClusterShape }
): Promise<StoreProcesses> {
  if (profile === "cluster") {
    const port = await freePort()
    let cluster: Cluster | undefined
    const members = () => (cluster?.members() ?? []).map((m) => Object.assign(m.process, { role: m.role }))
    return {
      url: `http://localhost:${port}`,
      list: members,
      start: async (env) => {
        if (cluster) {
          await Promise.all(cluster.members().map((m) => cluster!.restart(m.role)))
          return
        }
        say(`starting Medusa (${plural(shape.servers, "server")} behind haproxy + ${plural(shape.workers, "worker")})`)
        cluster = await startCluster({ ...shape, env, dir, port, echo: (role, line) => logs.push(`[${role}] ${line}`) })
        say(`Medusa up: ${members().map((m) => `${m.role} pid ${m.pid} after ${(m.bootMs / 1000).toFixed(1)} s`).join(", ")}`)
      },
      kill: async () => {
        await Promise.all(members().map((p) => p.crash()))
      },
      killOne: (role) => cluster!.kill(role),
      restartOne: (role) => cluster!.restart(role),
      stop: async () => {
        await cluster?.stop()
      },
    }
  }

  const modes: WorkerMode[] = profile === "production" ? ["server", "worker"] : ["shared"]
  const ports = new Map<WorkerMode, number>()
  for (const mode of modes) {
    ports.set(mode, await freePort())
  }
  const running = new Map<WorkerMode, Member>()
  let lastEnv: NodeJS.ProcessEnv = {}
  const boot = async (mode: WorkerMode) => {
    const started = await startMedusaProcess({ mode, port: ports.get(mode)!, env: lastEnv, echo: (line) => logs.push(modes.length > 1 ? `[${mode}] ${line}` : line) })
    running.set(mode, Object.assign(started, { role: mode }))
  }
  const byRole = (role: string) => {
    const mode = modes.find((m) => m === role)
    if (!mode) {
      throw new Error(`no Medusa process ${role}; the ${profile} profile runs ${modes.join(", ")}`)
    }
    return mode
  }
  return {
    url: `http://localhost:${ports.get(modes[0])}`,
    list: () => [...running.values()],
    start: async (env) => {
      lastEnv = env
      say(`starting Medusa (${modes.join(" + ")})`)
      const boots = await Promise.allSettled(modes.map(boot))
      const failed = boots.find((b): b is PromiseRejectedResult => b.status === "rejected")
      if (failed) {
        throw failed.reason
      }
      say(`Medusa up: ${modes.map((mode) => `${mode} pid ${running.get(mode)!.pid} after ${(running.get(mode)!.bootMs / 1000).toFixed(1)} s`).join(", ")}`)
    },
    kill: async () => {
      await Promise.all([...running.values()].map((p) => p.crash()))
    },
    killOne: async (role) => {
      const found = running.get(byRole(role))
      if (found) {
        await found.crash()
      }
    },
    restartOne: async (role) => {
      const mode = byRole(role)
      await running.get(mode)?.stop()
      await boot(mode)
    },
    stop: async () => {
      for (const mode of modes) {
        await running.get(mode)?.stop()
      }
    },
  }
}

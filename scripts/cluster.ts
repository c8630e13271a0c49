// The cluster profile: N `medusa start` server processes behind haproxy and M worker processes, on one
// PostgreSQL and one Redis (the deployment docs/operations.md describes). Used by the demo, the tests
// and the harnesses that take `--profile cluster`.
import { join } from "node:path"
import { startBalancer, type Balancer } from "./haproxy"
import { startMedusaProcess, type MedusaProcess } from "./medusa-process"
import { freePort } from "./postgres"

export interface ClusterMember {
  /** `server-1`, `server-2`, `worker-1`, …: the name in logs and in the balancer. */
  role: string
  mode: "server" | "worker"
  port: number
  /** The running process; replaced by `restart`. */
  process: MedusaProcess
}

export interface Cluster {
  /** The balancer's address: the store API, the admin and /hooks/payment/*. */
  url: string
  balancer: Balancer
  members(): ClusterMember[]
  /** SIGKILL to one member's process group (a crash: no shutdown); resolves once it is gone. */
  kill(role: string): Promise<void>
  /** Starts a member again on its port (after `kill`, or stops it first). */
  restart(role: string): Promise<void>
  /** Servers first (no new requests), then workers (they finish what they hold), then the balancer. */
  stop(): Promise<void>
}

export interface ClusterOptions {
  servers: number
  workers: number
  /** DATABASE_URL and REDIS_URL among them. */
  env: NodeJS.ProcessEnv
  /** Where the balancer's configuration goes. */
  dir: string
  /** The balancer's port (a free one when left out). */
  port?: number
  /** Each output line, with the member's role. */
  echo?: (role: string, line: string) => void
}

export async function startCluster({ servers, workers, env, dir, port, echo }: ClusterOptions): Promise<Cluster> {
  const roles = [
    ...Array.from({ length: servers }, (_, i) => ({ role: `server-${i + 1}`, mode: "server" as const })),
    ...Array.from({ length: workers }, (_, i) => ({ role: `worker-${i + 1}`, mode: "worker" as const })),
  ]
  const planned = await Promise.all(roles.map(async (member) => ({ ...member, port: await freePort() })))
  const logs = new Map(planned.map((member) => [member.role, [] as string[]]))
  const boot = (member: (typeof planned)[number]) =>
    startMedusaProcess({ mode: member.mode, port: member.port, env, logs: logs.get(member.role), echo: echo && ((line) => echo(member.role, line)) })

  const members: ClusterMember[] = []
  let balancer: Balancer | undefined
  const stop = async () => {
    for (const mode of ["server", "worker"]) {
      await Promise.all(members.filter((m) => m.mode === mode).map((m) => m.process.stop()))
    }
    await balancer?.stop()
  }
  try {
    const balancerPort = port ?? (await freePort())
    const servedBy = planned.filter((m) => m.mode === "server").map((m) => ({ name: m.role, port: m.port }))
    balancer = await startBalancer({ dir: join(dir, "haproxy"), port: balancerPort, servers: servedBy })
    // Booted side by side: each process compiles the sources on its own, so this is the slow part.
    const boots = await Promise.allSettled(planned.map(async (member) => members.push({ ...member, process: await boot(member) })))
    const failed = boots.find((b): b is PromiseRejectedResult => b.status === "rejected")
    if (failed) {
      throw failed.reason
    }
    await inRotation(balancer.url)
  } catch (error) {
    await stop()
    throw error
  }
  const member = (role: string) => {
    const found = members.find((m) => m.role === role)
    if (!found) {
      throw new Error(`no cluster member ${role}; members are ${members.map((m) => m.role).join(", ")}`)
    }
    return found
  }
  return {
    url: balancer.url,
    balancer,
    members: () => [...members],
    kill: (role) => member(role).process.crash(),
    restart: async (role) => {
      const found = member(role)
      await found.process.stop()
      found.process = await boot(found)
    },
    stop,
  }
}

/**
 * Waits until the balancer routes requests: haproxy marks the servers down while they boot (two failed
 * checks), and up again one check (a second apart) after they answer /health. So after the first
 * answer through it, two more intervals, for every server that answers to be back in rotation.
 */
async function inRotation(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status,
      () => 0
    )
    if (status === 200) {
      break
    }
    if (Date.now() > deadline) {
      throw new Error(`the balancer ${url} routed no request within ${timeoutMs / 1000} s (last answer ${status})`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000))
}

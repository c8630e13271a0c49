// Debian's `haproxy` in front of the cluster profile's server processes: our own process on 127.0.0.1,
// never the package's system service, started the way scripts/redis.ts starts redis-server.
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { BinaryUnavailableError, debianBinary } from "./debian-package"
import { spawnOwned } from "./owned-process"

export interface Balancer {
  /** http://localhost:<port>: the store API, the admin and /hooks/payment/*, round-robin over the servers. */
  url: string
  port: number
  /** What haproxy printed. */
  logs: string[]
  stop(): Promise<void>
}

/** `HAPROXY_BIN`, else haproxy on PATH, else Debian's package installed when running as root. */
export const haproxyBinary = () => debianBinary({ name: "haproxy", pkg: "haproxy", override: process.env.HAPROXY_BIN, instead: "set HAPROXY_BIN" })

/**
 * The configuration: round-robin over `servers`, each checked on Medusa's /health every second (down
 * after 2 failures, up after 1 success). A request whose connection a dead server refuses is sent to
 * another (`retries` with `redispatch`); one a server took and then died on is answered 502, as a real
 * balancer does, and the caller retries. Long time-outs: a completion can wait on locks for a while.
 */
export function haproxyConfig(port: number, servers: Array<{ name: string; port: number }>): string {
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  option redispatch",
    "  retries 3",
    "  timeout connect 2s",
    "  timeout client 180s",
    "  timeout server 180s",
    "frontend store",
    `  bind 127.0.0.1:${port}`,
    "  default_backend medusa",
    "backend medusa",
    "  balance roundrobin",
    "  option httpchk GET /health",
    "  http-check expect status 200",
    "  default-server inter 1s fall 2 rise 1",
    ...servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
    "",
  ].join("\n")
}

export async function startBalancer({ dir, port, servers, timeoutMs = 20_000 }: { dir: string; port: number; servers: Array<{ name: string; port: number }>; timeoutMs?: number }): Promise<Balancer> {
  const binary = haproxyBinary()
  await mkdir(dir, { recursive: true })
  const config = join(dir, "haproxy.cfg")
  await writeFile(config, haproxyConfig(port, servers))
  const logs: string[] = []
  // -db: stays in the foreground.
  const { running, stop } = spawnOwned(binary, ["-db", "-f", config], { logs, graceMs: 5_000 })

  const url = `http://localhost:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (!running()) {
      throw new BinaryUnavailableError(`haproxy exited at start:\n${logs.slice(-20).join("\n")}`)
    }
    try {
      // Any answer (503 while no server is up yet) shows the balancer listens.
      await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })
      break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new BinaryUnavailableError(`haproxy did not listen on ${url} within ${timeoutMs / 1000} s:\n${logs.slice(-20).join("\n")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url, port, logs, stop }
}

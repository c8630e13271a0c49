// Starts Debian's `redis-server` for the production profile (demo and tests), the way scripts/postgres.ts
// starts PostgreSQL: our own process on 127.0.0.1, never the package's system service.
import { mkdir } from "node:fs/promises"
import { connect } from "node:net"
import { BinaryUnavailableError, debianBinary } from "./debian-package"
import { type OwnedProcess, spawnOwned } from "./owned-process"
import { freePort } from "./postgres"

export interface RedisHandle {
  url: string
  /** Stops the server this script started; does nothing for REDIS_URL. */
  stop(): Promise<void>
  /** The port of the server this script started (undefined for REDIS_URL). */
  port?: number
  /** Stops the server this script started and starts it again on its port (a Redis restart; nothing for REDIS_URL). */
  restart(): Promise<void>
  /** What redis-server printed (empty for REDIS_URL). */
  logs: string[]
}

/** The redis-server binary; installs Debian's package when running as root. */
export const redisServerBinary = () => debianBinary({ name: "redis-server", pkg: "redis-server", instead: "set REDIS_URL" })

/** One PING over a raw socket: true once the server answers +PONG. */
export const redisAnswers = (port: number, host = "127.0.0.1") =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")))
    socket.once("error", () => done(false))
  })

/**
 * A Redis for BullMQ (Medusa's Redis event bus and workflow engine) and Redis locking:
 * `noeviction` (BullMQ loses jobs under any eviction policy), no persistence unless
 * `persistent` (the demo keeps its queue across restarts in `dir`). With REDIS_URL set, that
 * server is used and nothing is started.
 */
export async function startRedis({ dir, port, persistent = false, timeoutMs = 20_000 }: { dir: string; port?: number; persistent?: boolean; timeoutMs?: number }): Promise<RedisHandle> {
  if (process.env.REDIS_URL) {
    return { url: process.env.REDIS_URL, stop: async () => undefined, restart: async () => undefined, logs: [] }
  }
  const binary = redisServerBinary()
  await mkdir(dir, { recursive: true })
  const redisPort = port || (await freePort())
  const persistence = persistent ? ["--appendonly", "yes", "--appendfsync", "everysec", "--save", ""] : ["--appendonly", "no", "--save", ""]
  const args = [
    "--port", String(redisPort),
    "--bind", "127.0.0.1",
    "--protected-mode", "yes",
    "--daemonize", "no",
    "--supervised", "no",
    "--dir", dir,
    "--logfile", "",
    "--maxmemory-policy", "noeviction",
    ...persistence,
  ]
  const logs: string[] = []
  let server: OwnedProcess | undefined
  const stop = async () => server?.stop()
  const spawnServer = async () => {
    server = spawnOwned(binary, args, { logs, graceMs: 10_000 })
    const deadline = Date.now() + timeoutMs
    while (!(await redisAnswers(redisPort))) {
      if (!server.running() || Date.now() > deadline) {
        await stop()
        throw new BinaryUnavailableError(`redis-server did not start on port ${redisPort}:\n${logs.slice(-20).join("\n")}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await spawnServer()
  return {
    url: `redis://127.0.0.1:${redisPort}`,
    port: redisPort,
    stop,
    restart: async () => {
      await stop()
      await spawnServer()
    },
    logs,
  }
}

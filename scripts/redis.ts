// Starts Debian's `redis-server` for the production profile (demo and tests), the way scripts/postgres.ts
// starts PostgreSQL: our own process on 127.0.0.1, never the package's system service.
import { spawn } from "node:child_process"
import { mkdir } from "node:fs/promises"
import { connect } from "node:net"
import { join } from "node:path"
import { BinaryUnavailableError, debianBinary } from "./debian-package"
import { freePort } from "./postgres"

export interface RedisHandle {
  url: string
  /** Stops the server this script started; does nothing for REDIS_URL. */
  stop(): Promise<void>
  /** The port of the server this script started (undefined for REDIS_URL). */
  port?: number
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
    return { url: process.env.REDIS_URL, stop: async () => undefined, logs: [] }
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
  // Own process group: a Ctrl-C in the terminal reaches the caller, which stops Medusa before Redis.
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], detached: true })
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split("\n").filter(Boolean))
  child.stdout.on("data", collect)
  child.stderr.on("data", collect)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  // If the caller dies without stopping us, take the server with it.
  const killOnExit = () => child.exitCode === null && child.kill("SIGKILL")
  process.once("exit", killOnExit)

  void exited.then(() => process.removeListener("exit", killOnExit))

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    }
  }

  const deadline = Date.now() + timeoutMs
  while (!(await redisAnswers(redisPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new BinaryUnavailableError(`redis-server did not start on port ${redisPort}:\n${logs.slice(-20).join("\n")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `redis://127.0.0.1:${redisPort}`, port: redisPort, stop, logs }
}

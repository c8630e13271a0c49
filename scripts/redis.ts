// Starts Debian's `redis-server` for the production profile (demo and tests), the way scripts/postgres.ts
// starts PostgreSQL: our own process on 127.0.0.1, never the package's system service.
import { spawn, spawnSync } from "node:child_process"
import { accessSync, constants } from "node:fs"
import { mkdir } from "node:fs/promises"
import { connect } from "node:net"
import { delimiter, join } from "node:path"
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

const INSTALL = "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 redis-server"

export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError"
}

function findOnPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/sbin", "/usr/local/bin"]
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {
      // not in this directory
    }
  }
  return undefined
}

/** The redis-server binary; installs Debian's package when running as root, like .ci/run does for Chromium. */
export function redisServerBinary(): string {
  const found = findOnPath("redis-server")
  if (found) {
    return found
  }
  if (process.getuid?.() !== 0) {
    throw new RedisUnavailableError("redis-server not found: install Debian's redis-server package (sudo apt-get install redis-server) or set REDIS_URL")
  }
  console.log("[redis] redis-server not found; installing Debian's redis-server package")
  // The package's own service (systemd or init script) may or may not start; nothing here uses it.
  const run = spawnSync("sh", ["-c", INSTALL], { stdio: ["ignore", "inherit", "inherit"] })
  const installed = findOnPath("redis-server")
  if (run.status !== 0 || !installed) {
    throw new RedisUnavailableError(`installing redis-server failed (exit ${run.status}); install it yourself or set REDIS_URL`)
  }
  return installed
}

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
      throw new RedisUnavailableError(`redis-server did not start on port ${redisPort}:\n${logs.slice(-20).join("\n")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `redis://127.0.0.1:${redisPort}`, port: redisPort, stop, logs }
}

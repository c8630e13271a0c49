// One `medusa start` process of this repository's store in a given worker mode, for the production
// profile of the demo and the tests: a server process (HTTP routes, enqueues events) and worker
// processes (consume events, run scheduled jobs) against the same database and Redis.
import { spawn } from "node:child_process"

export type WorkerMode = "server" | "worker" | "shared"

export interface MedusaProcess {
  mode: WorkerMode
  port: number
  /** http://localhost:<port>; a worker process answers only /health there. */
  url: string
  pid: number
  /** Every line the process printed so far (stdout and stderr, colour codes kept), after what `logs` held. */
  logs: string[]
  /** Milliseconds from spawn until /health answered. */
  bootMs: number
  /** The process's exit, once it happens (code, or null when a signal ended it). */
  exited: Promise<number | null>
  /** SIGTERM (Medusa shuts down gracefully), SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>
  /** SIGKILL to its process group (a crash: no shutdown); resolves once it is gone. */
  crash(): Promise<void>
}

export class MedusaProcessError extends Error {
  override name = "MedusaProcessError"
}

const MAX_LOG_LINES = 50_000

/**
 * Spawns `medusa start` (not `develop`: no file watcher restarting processes, one process per
 * mode). `medusa start` always listens on PORT, even in worker mode where only /health is
 * mounted, so each process needs a port of its own. `env` must hold DATABASE_URL and, for the
 * production profile, REDIS_URL; NODE_ENV defaults to development (ts-node loads the sources, the
 * admin runs from its dev middleware, cookies work over plain http on localhost).
 */
export async function startMedusaProcess({
  mode,
  port,
  env,
  cwd = process.cwd(),
  echo,
  logs = [],
  timeoutMs = 300_000,
}: {
  mode: WorkerMode
  port: number
  env: NodeJS.ProcessEnv
  cwd?: string
  /** Called with each output line as it arrives (the demo prints them with a prefix). */
  echo?: (line: string) => void
  /** Lines are appended here (pass the same array across restarts to keep one log per role). */
  logs?: string[]
  timeoutMs?: number
}): Promise<MedusaProcess> {
  const started = Date.now()
  const child = spawn(process.execPath, ["node_modules/@medusajs/cli/cli.js", "start"], {
    cwd,
    env: { NODE_ENV: "development", ...env, PORT: String(port), MEDUSA_WORKER_MODE: mode },
    // Own process group: Ctrl-C reaches the caller, which stops the processes in order.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  // Medusa logs a port it cannot listen on and keeps running: fail at once instead of at the time-out.
  let portTaken = false
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = ""
    stream.setEncoding("utf8")
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n")
      rest = lines.pop() ?? ""
      for (const line of lines) {
        portTaken ||= line.includes("EADDRINUSE")
        if (logs.length < MAX_LOG_LINES) {
          logs.push(line)
        }
        echo?.(line)
      }
    })
  }
  collect(child.stdout)
  collect(child.stderr)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  // If the caller dies without stopping us, take the process group with it.
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {
        // already gone
      }
    }
  }
  process.once("exit", killOnExit)

  void exited.then(() => process.removeListener("exit", killOnExit))

  const stop = async (graceMs = 20_000) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return
    }
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name)
      } catch {
        // already gone
      }
    }
    signal("SIGTERM")
    const timer = setTimeout(() => signal("SIGKILL"), graceMs)
    await exited
    clearTimeout(timer)
  }

  const url = `http://localhost:${port}`
  const deadline = started + timeoutMs
  for (;;) {
    if (portTaken) {
      await stop()
      throw new MedusaProcessError(`medusa start (${mode}) could not listen on port ${port}, another process holds it:\n${logs.slice(-30).join("\n")}`)
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new MedusaProcessError(`medusa start (${mode}) exited early (code ${child.exitCode}):\n${logs.slice(-30).join("\n")}`)
    }
    try {
      // A time-out per try: a port someone else holds may accept and never answer.
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })).ok) {
        break
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new MedusaProcessError(`medusa start (${mode}) did not answer ${url}/health within ${timeoutMs / 1000} s:\n${logs.slice(-30).join("\n")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const crash = async () => {
    try {
      process.kill(-child.pid!, "SIGKILL")
    } catch {
      // already gone
    }
    await exited
  }
  return { mode, port, url, pid: child.pid!, logs, bootMs: Date.now() - started, exited, stop, crash }
}

// Commands and background processes of the merchant-install check: every one runs in its own
// process group, so a stop takes the whole group (npx and the node process under it), and its
// output is kept under a name, so a failure can show its end and `saveLogs` can write it out.
// Logs are written at the end, when every secret is known, and secrets are masked in all of it.
import { spawn } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"

export class CheckError extends Error {
  override name = "CheckError"
}

/** Values that must never be printed (API keys, tokens, the webhook signing secret). */
const secrets = new Set<string>()

export function addSecret(value: string | undefined) {
  if (value && value.length >= 8) {
    secrets.add(value)
  }
}

export function redact(text: string): string {
  let out = text
  for (const secret of secrets) {
    out = out.split(secret).join("[redacted]")
  }
  return out.replace(/whsec_[A-Za-z0-9]+/g, "whsec_[redacted]").replace(/sk_[A-Za-z0-9_]+/g, "sk_[redacted]")
}

function tail(lines: string[], count = 40) {
  return redact(lines.slice(-count).join("\n"))
}

interface Spawned {
  lines: string[]
  exited: Promise<number | null>
  kill(signal: NodeJS.Signals): void
  running(): boolean
}

const MAX_LOG_LINES = 5_000
/** Output of everything run so far, by name (a name used twice appends). */
const logs = new Map<string, string[]>()

/** Writes every log, secrets masked, as <dir>/<name>.log. */
export async function saveLogs(dir: string) {
  await mkdir(dir, { recursive: true })
  for (const [name, lines] of logs) {
    await writeFile(join(dir, `${name}.log`), `${redact(lines.join("\n"))}\n`)
  }
}

function spawnLogged(name: string, argv: string[], { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv }): Spawned {
  const lines: string[] = []
  const log = logs.get(name) ?? []
  logs.set(name, log)
  log.push(`$ ${argv.join(" ")}  (in ${cwd})`)
  const child = spawn(argv[0], argv.slice(1), { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = ""
    stream.setEncoding("utf8")
    stream.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\n")
      rest = parts.pop() ?? ""
      for (const target of [lines, log]) {
        target.push(...parts)
        if (target.length > MAX_LOG_LINES) {
          target.splice(0, target.length - MAX_LOG_LINES)
        }
      }
    })
  }
  collect(child.stdout)
  collect(child.stderr)
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      lines.push(String(error))
      resolve(-1)
    })
    child.once("exit", (code) => resolve(code))
  })
  const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined
  const kill = (signal: NodeJS.Signals) => {
    if (running()) {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // already gone
      }
    }
  }
  return { lines, exited, kill, running }
}

/** Processes still running, killed by `stopAll` and, as a last resort, when this process exits. */
const live = new Set<Spawned>()
process.once("exit", () => {
  for (const started of live) {
    started.kill("SIGKILL")
  }
})

export interface Command {
  /** The log it goes to. */
  name: string
  what: string
  argv: string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  timeoutMs: number
}

/** Runs a command to its end. Returns its output lines; fails with their end. */
export async function run({ name, what, argv, cwd, env = process.env, timeoutMs }: Command): Promise<string[]> {
  const started = spawnLogged(name, argv, { cwd, env })
  live.add(started)
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    started.kill("SIGKILL")
  }, timeoutMs)
  const code = await started.exited
  clearTimeout(timer)
  live.delete(started)
  if (timedOut) {
    throw new CheckError(`${what}: \`${argv.join(" ")}\` did not finish within ${timeoutMs / 1000} s; its last lines:\n${tail(started.lines)}`)
  }
  if (code !== 0) {
    throw new CheckError(`${what}: \`${argv.join(" ")}\` exited with ${code}; its last lines:\n${tail(started.lines)}`)
  }
  return started.lines
}

export interface Background {
  lines: string[]
  exited: Promise<number | null>
  running(): boolean
  /** SIGTERM, SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>
  tail(count?: number): string
}

/** Starts a long-running process (the sandbox, the store); `stopAll` ends it if the caller does not. */
export function startBackground({ name, argv, cwd, env = process.env }: Omit<Command, "timeoutMs" | "what">): Background {
  const started = spawnLogged(name, argv, { cwd, env })
  live.add(started)
  void started.exited.then(() => live.delete(started))
  const stop = async (graceMs = 15_000) => {
    if (!started.running()) {
      return
    }
    started.kill("SIGTERM")
    const timer = setTimeout(() => started.kill("SIGKILL"), graceMs)
    await started.exited
    clearTimeout(timer)
  }
  return { lines: started.lines, exited: started.exited, running: started.running, stop, tail: (count) => tail(started.lines, count) }
}

/** Stops every process started here that is still running. */
export async function stopAll() {
  await Promise.all(
    [...live].map(async (started) => {
      started.kill("SIGTERM")
      const timer = setTimeout(() => started.kill("SIGKILL"), 15_000)
      await started.exited
      clearTimeout(timer)
    })
  )
}

/** Polls `find` until it returns something, the deadline passes (fails naming `what`), or `abort` says why to stop. */
export async function waitFor<T>(what: string, find: () => Promise<T | undefined | null | false>, { timeoutMs, abort }: { timeoutMs: number; abort?: () => string | undefined }): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found) {
      return found
    }
    const reason = abort?.()
    if (reason) {
      throw new CheckError(`${what}: ${reason}`)
    }
    if (Date.now() > deadline) {
      throw new CheckError(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

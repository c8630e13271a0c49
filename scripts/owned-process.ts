// A server process the demo or a test starts and owns (redis-server, haproxy): its own process group,
// so a Ctrl-C in the terminal reaches only the caller, which stops it in order; killed with the caller.
import { spawn } from "node:child_process"

export interface OwnedProcess {
  /** Whether it has not exited yet. */
  running(): boolean
  /** SIGTERM, SIGKILL after `graceMs`; resolves once it is gone. */
  stop(): Promise<void>
}

export function spawnOwned(binary: string, args: string[], { logs, graceMs }: { logs: string[]; graceMs: number }): OwnedProcess {
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], detached: true })
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split("\n").filter(Boolean))
  child.stdout.on("data", collect)
  child.stderr.on("data", collect)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  // If the caller dies without stopping it, take it along.
  const killOnExit = () => child.exitCode === null && child.kill("SIGKILL")
  process.once("exit", killOnExit)
  void exited.then(() => process.removeListener("exit", killOnExit))
  const running = () => child.exitCode === null && child.signalCode === null
  return {
    running,
    stop: async () => {
      if (running()) {
        child.kill("SIGTERM")
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
        await exited
        clearTimeout(timer)
      }
    },
  }
}

// One PostgreSQL for every database suite of a test run, started by scripts/test.mjs: prints its
// DB_* variables as one JSON line, and stops it (removing its files) when the runner closes this
// process's stdin, or the runner itself dies.
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "./postgres"

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "mptw-pg-"))
  const { pg, env } = await startPostgres({ dir })
  process.stdout.write(`${JSON.stringify(env)}\n`)

  let stopping = false
  const stop = async () => {
    if (stopping) {
      return
    }
    stopping = true
    await pg.stop().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
    process.exit(0)
  }
  const onStop = () => void stop()
  process.stdin.on("end", onStop)
  process.stdin.on("close", onStop)
  process.stdin.resume()
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, onStop)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

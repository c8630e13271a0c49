// Loaded into every Medusa process by `bench:burst --cpu-profile` (NODE_OPTIONS=--import): SIGUSR2 starts V8's
// sampling profiler, the next SIGUSR2 stops it and writes <dir>/<pid>-<n>.cpuprofile. In-process, so each
// process profiles itself without an inspector port of its own.
import { renameSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { join } from "node:path"

const dir = process.env.TW_BENCH_CPU_PROFILE_DIR
if (dir) {
  const session = new Session()
  session.connect()
  let running = false
  let taken = 0
  process.on("SIGUSR2", async () => {
    if (!running) {
      running = true
      await session.post("Profiler.enable")
      await session.post("Profiler.start")
      return
    }
    running = false
    const { profile } = await session.post("Profiler.stop")
    // Written aside, then renamed: the bench reads the file as soon as its name appears.
    const file = join(dir, `${process.pid}-${++taken}.cpuprofile`)
    writeFileSync(`${file}.part`, JSON.stringify(profile))
    renameSync(`${file}.part`, file)
  })
}

// Finds a server binary the demo and the tests run (redis-server, haproxy), installing Debian's package
// when it is missing and this runs as root, as scripts/provide-chromium.ts does for Chromium.
import { spawnSync } from "node:child_process"
import { accessSync, constants } from "node:fs"
import { delimiter, join } from "node:path"

export class BinaryUnavailableError extends Error {
  override name = "BinaryUnavailableError"
}

function findOnPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"]
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

/**
 * The path of `name`: `override` (an environment variable's value) when given, else found on PATH,
 * else installed from Debian's `pkg` when running as root. `instead` tells the user what to do otherwise.
 */
export function debianBinary({ name, pkg, override, instead }: { name: string; pkg: string; override?: string; instead: string }): string {
  if (override) {
    return override
  }
  const found = findOnPath(name)
  if (found) {
    return found
  }
  if (process.getuid?.() !== 0) {
    throw new BinaryUnavailableError(`${name} not found: install Debian's ${pkg} package (sudo apt-get install ${pkg}) or ${instead}`)
  }
  console.log(`[${name}] ${name} not found; installing Debian's ${pkg} package`)
  // The package's own service (systemd or init script) may or may not start; nothing here uses it.
  const install = `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 ${pkg}`
  const run = spawnSync("sh", ["-c", install], { stdio: ["ignore", "inherit", "inherit"] })
  const installed = findOnPath(name)
  if (run.status !== 0 || !installed) {
    throw new BinaryUnavailableError(`installing ${pkg} failed (exit ${run.status}); install it yourself or ${instead}`)
  }
  return installed
}

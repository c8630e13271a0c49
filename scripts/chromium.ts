import { spawnSync } from "node:child_process"
import { accessSync, constants, existsSync } from "node:fs"
import { delimiter, join } from "node:path"
import { type Browser, chromium } from "playwright-core"

/**
 * The one place that finds and starts Chromium for the browser tests, the
 * sandbox's browser test (through CHROMIUM_PATH, which the test runner sets)
 * and the demo smoke test. It uses a system Chromium (Debian's package here)
 * rather than a browser downloaded by a test tool, which fails in CI.
 */

/** Thrown when no Chromium can be found or installed; its message is one line saying what to do. */
export class ChromiumMissingError extends Error {
  override readonly name = "ChromiumMissingError"
}

const BINARY = "chromium"

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** CHROMIUM_PATH if set (it must point at a program), else `chromium` on PATH, else undefined. */
export function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH
  if (configured) {
    if (!isExecutable(configured)) {
      throw new ChromiumMissingError(`CHROMIUM_PATH is ${configured}, which is not an executable file: point it at Chromium or Chrome, or unset it`)
    }
    return configured
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = dir && join(dir, BINARY)
    if (candidate && isExecutable(candidate)) {
      return candidate
    }
  }
  return undefined
}

const APT_INSTALL = "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"

/** Root on Debian (or a derivative) with apt: the one setting where installing it for the user is safe. */
const canInstallWithApt = () => process.getuid?.() === 0 && existsSync("/etc/debian_version") && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0

/**
 * Finds Chromium, installing Debian's package first when running as root on
 * Debian; otherwise throws a ChromiumMissingError that says what to install.
 * `log` gets one line when an install starts (apt's own output is shown only if it fails).
 */
export function provideChromium(log: (line: string) => void = console.error): string {
  const found = findChromium()
  if (found) {
    return found
  }
  const missing = "Chromium is needed for the browser tests: install it (Debian/Ubuntu: `apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary"
  if (!canInstallWithApt()) {
    throw new ChromiumMissingError(missing)
  }
  log("Chromium not found: installing Debian's chromium with apt-get (a minute or two)")
  const apt = spawnSync("sh", ["-c", APT_INSTALL], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  const installed = apt.status === 0 ? findChromium() : undefined
  if (!installed) {
    process.stderr.write(`${apt.stdout ?? ""}${apt.stderr ?? ""}`)
    const outcome = apt.status === 0 ? "ran, but no `chromium` is on PATH" : `exited ${apt.status}`
    throw new ChromiumMissingError(`installing Debian's chromium failed (\`${APT_INSTALL}\` ${outcome}); ${missing}`)
  }
  return installed
}

/** Flags for a headless run as root in a container, with nothing talking to Google's services. */
export const CHROMIUM_ARGS = [
  "--headless",
  // Tests run as root in CI containers, where Chromium's own sandbox cannot start.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
  // No --user-data-dir: Playwright gives every launch a fresh temporary profile (and refuses one in args).
]

/** Headless Chromium with CHROMIUM_ARGS; throws a ChromiumMissingError if there is none. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium()
  if (!executablePath) {
    throw new ChromiumMissingError("no Chromium found: set CHROMIUM_PATH or put `chromium` on PATH (`node scripts/test.mjs browser` installs Debian's package when run as root)")
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS })
}

import { accessSync, constants, statSync } from "node:fs"
import { delimiter, join } from "node:path"

/**
 * The Chromium the browser test drives: CHROMIUM_PATH when set (the root test
 * runner sets it), else `chromium` on PATH. Without one the test stops with one
 * line saying what to install, rather than a launch error deep in playwright.
 */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    return fromEnv
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, "chromium")
    if (isExecutableFile(candidate)) {
      return candidate
    }
  }
  throw new Error("Chromium not found: install chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH to its executable.")
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * `node --import tsx scripts/provide-chromium.ts`: prints the path of a
 * Chromium to use (installing Debian's package as root on Debian), or one
 * line on stderr saying what to install and exits 1. The test runner calls
 * it before any suite that needs a browser.
 */
import { ChromiumMissingError, provideChromium } from "./chromium"

try {
  process.stdout.write(`${provideChromium()}\n`)
} catch (error) {
  if (!(error instanceof ChromiumMissingError)) {
    throw error
  }
  console.error(error.message)
  process.exitCode = 1
}

import { type Browser, chromium } from "playwright-core"

/**
 * Headless Chromium for the browser tests and the demo smoke test. It uses the
 * system's Chromium (Debian package) rather than a downloaded one; point
 * CHROMIUM_PATH elsewhere if yours lives somewhere else.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    // --no-sandbox: tests run as root in CI containers, where Chromium's sandbox cannot start.
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  })
}

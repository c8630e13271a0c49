import { mkdir, rm } from "node:fs/promises"
import { join } from "node:path"
import type { Page } from "playwright-core"

export const SCREENSHOT_DIR = join(process.cwd(), "test-results", "screenshots")

/**
 * Numbered full-page screenshots of one scenario, in
 * test-results/screenshots/<scenario>/<nn>-<step>.png. A run starts the
 * scenario's folder afresh so old steps never mix with new ones.
 */
export async function screenshots(page: Page, scenario: string) {
  const dir = join(SCREENSHOT_DIR, scenario)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  let step = 0
  return async (name: string) => {
    step += 1
    await page.screenshot({ path: join(dir, `${String(step).padStart(2, "0")}-${name}.png`), fullPage: true })
  }
}

export type Shot = Awaited<ReturnType<typeof screenshots>>

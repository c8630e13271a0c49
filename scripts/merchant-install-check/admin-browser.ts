// The stock store's admin in headless Chromium, as the merchant opens it: the sign-in at /app, then
// the plugin's Remittances page from the sidebar. It shows that the admin bundle the store builds
// holds the plugin's extensions (a route and its sidebar entry), that their translations load (the
// texts, never their keys), and that the page's request to the plugin's admin API answers.
import type { Page } from "playwright-core"
import { launchChromium } from "../chromium"
import { CheckError } from "./processes"

/** The Remittances page's texts in English (src/admin/i18n/json/en.json), which a missing translation shows as their keys. */
const MENU_LABEL = "Remittances"
const HEADING = "Remittances due"
const EMPTY = "Nothing is due."
/** The first page waits for Vite to compile the dashboard and the plugin's extensions (the store runs in development). */
const FIRST_PAGE_TIMEOUT_MS = 240_000

async function openRemittances(page: Page, app: string, admin: { email: string; password: string }) {
  await page.goto(`${app}/login`)
  await page.fill('input[name="email"]', admin.email)
  await page.fill('input[name="password"]', admin.password)
  await page.click('button[type="submit"]')
  const menu = page.locator('a[href="/app/tw-remittances"]').first()
  await menu.waitFor({ state: "attached" })
  page.setDefaultTimeout(30_000)
  const label = (await menu.innerText()).trim()
  if (label !== MENU_LABEL) {
    throw new CheckError(`the admin's sidebar shows the plugin's Remittances entry as "${label}", not "${MENU_LABEL}": its translations did not load`)
  }
  await menu.click()
  await page.getByRole("heading", { level: 1, name: HEADING }).waitFor()
  await page.getByText(EMPTY).waitFor()
}

/** Signs in to `${storeOrigin}/app` and opens the plugin's Remittances page; throws on any page error. */
export async function checkAdminBundle(storeOrigin: string, admin: { email: string; password: string }) {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    page.setDefaultTimeout(FIRST_PAGE_TIMEOUT_MS)
    const pageErrors: string[] = []
    page.on("pageerror", (error) => pageErrors.push(error.message))
    try {
      await openRemittances(page, `${storeOrigin}/app`, admin)
    } catch (error) {
      const shown = await page
        .locator("body")
        .innerText()
        .catch(() => "")
      throw new CheckError(`the admin did not show the plugin's Remittances page (${(error as Error).message.split("\n")[0]}) at ${page.url()}; it shows: ${shown.slice(0, 400)}${pageErrors.length ? `; page errors: ${pageErrors.join("; ")}` : ""}`)
    }
    if (pageErrors.length) {
      throw new CheckError(`the admin's pages threw: ${pageErrors.join("; ")}`)
    }
  } finally {
    await browser.close()
  }
}

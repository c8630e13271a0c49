import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { NOT_FOUND, PAGES, type PageDefinition } from "./pages"

const PAGES_DIR = join(__dirname, "pages")

/** What the browser code reads from the page (see browser/config.ts). */
export interface BrowserConfig {
  publishableKey: string
}

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c")
}

const escapeText = (value: string) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Every page's HTML, rendered once at start: the layout around the page's
 * fragment, the configuration the browser code needs, and its script.
 */
export async function renderPages(config: BrowserConfig): Promise<Map<string, string>> {
  const layout = await readFile(join(PAGES_DIR, "layout.html"), "utf8")
  const rendered = new Map<string, string>()
  for (const page of [...PAGES, NOT_FOUND]) {
    rendered.set(page.name, await renderPage(layout, page, config))
  }
  return rendered
}

async function renderPage(layout: string, page: Pick<PageDefinition, "name" | "title">, config: BrowserConfig): Promise<string> {
  const content = await readFile(join(PAGES_DIR, `${page.name}.html`), "utf8")
  const script = page === NOT_FOUND ? "" : `<script type="module" src="/assets/${page.name}.js"></script>`
  const slots: Record<string, string> = {
    title: escapeText(page.title),
    page: page.name,
    config: scriptJson(config),
    script,
    content,
  }
  // One pass, so text inserted into a slot is never itself read as a slot.
  return layout.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => slots[name] ?? whole)
}

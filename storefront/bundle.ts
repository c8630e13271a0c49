import { build } from "esbuild"
import { join, relative } from "node:path"
import { PAGES } from "./pages"

const BROWSER_DIR = join(__dirname, "browser")
/** esbuild needs an absolute output directory even when nothing is written. */
const OUT_DIR = join(__dirname, ".assets")

export interface Asset {
  contentType: string
  body: Uint8Array
}

/**
 * Bundles the browser code in memory, one ES module per page plus shared
 * chunks (the js-sdk is loaded once), served under `/assets/`. Built at start
 * so the storefront needs no build step of its own.
 */
export async function buildBrowserAssets(): Promise<Map<string, Asset>> {
  const result = await build({
    entryPoints: PAGES.map((page) => ({ in: join(BROWSER_DIR, "pages", `${page.name}.ts`), out: page.name })),
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: "linked",
    chunkNames: "chunks/[name]-[hash]",
    tsconfig: join(BROWSER_DIR, "tsconfig.json"),
    write: false,
    logLevel: "silent",
  })
  const assets = new Map<string, Asset>()
  for (const file of result.outputFiles) {
    const path = `/assets/${relative(OUT_DIR, file.path).split("\\").join("/")}`
    const contentType = path.endsWith(".map") ? "application/json" : "text/javascript; charset=utf-8"
    assets.set(path, { contentType, body: file.contents })
  }
  return assets
}

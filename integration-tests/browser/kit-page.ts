import { build } from "esbuild"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { join } from "node:path"
import { proxyTo } from "../../storefront/proxy"

const KIT_DIR = join(__dirname, "..", "..", "packages", "storefront")
/** The page that mounts the kit's React components (checked by the kit's tsconfig, with the kit's sources). */
const ENTRY = join(KIT_DIR, "test", "browser", "kit-components-page.tsx")

export interface KitPageHandle {
  url: string
  close(): Promise<void>
}

/** The test page as one ES module, bundled in memory (React's production build, as a storefront ships it). */
async function bundlePage(): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfig: join(KIT_DIR, "tsconfig.json"),
    outfile: join(KIT_DIR, ".kit-page", "page.js"),
    write: false,
    logLevel: "silent",
  })
  return result.outputFiles[0]!.contents
}

const html = (publishableKey: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>medusa-payment-tw-storefront/react</title>
<script id="kit-config" type="application/json">${JSON.stringify({ publishableKey }).replace(/</g, "\\u003c")}</script>
<script type="module" src="/kit-assets/page.js"></script></head>
<body><div id="root"></div></body></html>`

/**
 * A tiny storefront for the kit's components: `/kit/{locale}/{piece}` is the
 * test page, `/store/*` and `/auth/customer/*` go to the Medusa app (one
 * origin, as the demo storefront does). It listens where STOREFRONT_URL
 * points, so the providers' return addresses lead back to it.
 */
export async function startKitPage(options: { port: number; backendUrl: string; publishableKey: string }): Promise<KitPageHandle> {
  const script = await bundlePage()
  const page = html(options.publishableKey)
  const proxy = proxyTo(options.backendUrl)
  const send = (res: ServerResponse, status: number, contentType: string, body: string | Uint8Array) => {
    res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" })
    res.end(body)
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? "/", "http://kit")
    if (pathname.startsWith("/store/") || pathname.startsWith("/auth/customer/")) {
      return proxy(req, res)
    }
    if (pathname === "/kit-assets/page.js") {
      return send(res, 200, "text/javascript; charset=utf-8", script)
    }
    if (/^\/kit\/(en|zh-TW)\/(checkout|card|return|account|saved-card|subscribe|step|order|product)$/.test(pathname)) {
      return send(res, 200, "text/html; charset=utf-8", page)
    }
    return send(res, 404, "text/plain", "not found")
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, "127.0.0.1", () => resolve())
  })
  return {
    url: `http://127.0.0.1:${options.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

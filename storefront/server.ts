import { readFile } from "node:fs/promises"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { buildBrowserAssets } from "./bundle"
import { renderPages } from "./page-html"
import { pageFor } from "./pages"
import { proxyTo } from "./proxy"

export interface StorefrontOptions {
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** The Medusa server, e.g. http://localhost:9000; `/store/*` is passed through to it. */
  backendUrl: string
  /** Sent by the browser with every store call. */
  publishableKey: string
}

export interface StorefrontHandle {
  /** e.g. http://127.0.0.1:8000 */
  url: string
  close(): Promise<void>
}

/**
 * The demo storefront: static pages whose browser code calls the store API
 * through this same server, which passes `/store/*` (and `/auth/customer/*`) on to Medusa.
 */
export async function startStorefront(options: StorefrontOptions): Promise<StorefrontHandle> {
  const [assets, pages, styles] = await Promise.all([
    buildBrowserAssets(),
    renderPages({ publishableKey: options.publishableKey }),
    readFile(join(__dirname, "styles.css")),
  ])
  const proxy = proxyTo(options.backendUrl)

  const send = (res: ServerResponse, status: number, contentType: string, body: string | Uint8Array) => {
    // Pages change with every start of the demo; nothing here is worth caching.
    res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" })
    res.end(body)
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? "/", "http://storefront")
    // The store API, and customer login (the js-sdk's `auth`), so a logged-in customer works on one origin too.
    if (pathname.startsWith("/store/") || pathname.startsWith("/auth/customer/")) {
      return proxy(req, res)
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" })
      return res.end()
    }
    if (pathname === "/styles.css") {
      return send(res, 200, "text/css; charset=utf-8", styles)
    }
    const asset = assets.get(pathname)
    if (asset) {
      return send(res, 200, asset.contentType, asset.body)
    }
    const page = pageFor(pathname)
    if (page) {
      return send(res, 200, "text/html; charset=utf-8", pages.get(page.name)!)
    }
    return send(res, 404, "text/html; charset=utf-8", pages.get("not-found")!)
  }

  const server = createServer(handle)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address

  let closing: Promise<void> | undefined
  return {
    url: `http://${host}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}

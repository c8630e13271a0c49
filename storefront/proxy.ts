import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from "node:http"

/** Headers that describe one connection, not the message: never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"])

function forwardable(headers: IncomingHttpHeaders, host?: string): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name)) {
      kept[name] = value
    }
  }
  if (host) {
    kept.host = host
  }
  return kept
}

/**
 * Passes a browser request through to the Medusa backend and streams the
 * answer back. The browser then talks to one origin, so the backend needs no
 * CORS settings for the storefront.
 */
export function proxyTo(backendUrl: string) {
  const backend = new URL(backendUrl)
  return (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      {
        protocol: backend.protocol,
        hostname: backend.hostname,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: forwardable(req.headers, backend.host),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers))
        answer.pipe(res)
      }
    )
    upstream.on("error", () => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ type: "bad_gateway", message: "The store backend is not reachable." }))
    })
    req.pipe(upstream)
  }
}

import { createServer, type IncomingHttpHeaders, type Server } from "node:http"

/** What a mounted API sees of a request: already read, already split. */
export interface SandboxRequest {
  method: string
  /** Path below the mount prefix, e.g. `/checkout` for `/hosted-api/checkout`. */
  path: string
  fullPath: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: Buffer
  /** Caller's IP, IPv4-mapped IPv6 addresses shortened to IPv4. */
  remoteAddress: string
}

export type SandboxResponse =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Close the connection without an answer (a fault that emulates a lost response). */
  | { drop: true }

export interface Mount {
  prefix: string
  handle(req: SandboxRequest): SandboxResponse | Promise<SandboxResponse>
}

const MAX_BODY_BYTES = 1024 * 1024

export function json(status: number, value: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: JSON.stringify(value) }
}

export function text(status: number, body: string, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body }
}

export function html(status: number, body: string): SandboxResponse {
  return { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body }
}

export function redirect(location: string): SandboxResponse {
  // 303: the browser follows a form POST with a GET.
  return { status: 303, headers: { location, "cache-control": "no-store" }, body: "" }
}

/**
 * One node:http server dispatching by path prefix to the mounted APIs (longest
 * prefix first). Paths no mount claims get a plain 404.
 */
export function createSandboxServer(
  mounts: Mount[],
  hooks: { afterRequest: (req: SandboxRequest, status: number | "dropped") => void; onError: (err: unknown) => void }
): Server {
  const ordered = [...mounts].sort((a, b) => b.prefix.length - a.prefix.length)
  return createServer((req, res) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        tooLarge = true
      } else {
        chunks.push(chunk)
      }
    })
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://sandbox.invalid")
      const request: SandboxRequest = {
        method: (req.method ?? "GET").toUpperCase(),
        path: url.pathname,
        fullPath: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        remoteAddress: normaliseAddress(req.socket.remoteAddress),
      }
      const respond = async (): Promise<SandboxResponse> => {
        if (tooLarge) {
          return text(413, "Payload Too Large")
        }
        const mount = ordered.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`))
        if (!mount) {
          return text(404, "Not Found")
        }
        request.path = url.pathname.slice(mount.prefix.length) || "/"
        return mount.handle(request)
      }
      respond()
        .catch((err: unknown) => {
          hooks.onError(err)
          return text(500, "Internal Server Error")
        })
        .then((out) => {
          if ("drop" in out) {
            req.socket.destroy()
            hooks.afterRequest(request, "dropped")
            return
          }
          res.writeHead(out.status, out.headers ?? {})
          res.end(out.body ?? "")
          hooks.afterRequest(request, out.status)
        })
        .catch(hooks.onError)
    })
  })
}

function normaliseAddress(address: string | undefined): string {
  if (!address) {
    return ""
  }
  return address.startsWith("::ffff:") ? address.slice(7) : address
}

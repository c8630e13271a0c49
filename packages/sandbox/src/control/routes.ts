import type { z } from "zod"
import { Router } from "../router"
import { json, type Mount, type SandboxRequest } from "../server"

/** The control API under `/_sandbox`: JSON in, JSON out, errors as `{ error, issues? }`. */

export interface ControlRequest {
  params: Record<string, string>
  query: URLSearchParams
  body: unknown
}

export interface ControlReply {
  status: number
  body: unknown
}

export type ControlHandler = (req: ControlRequest) => ControlReply | Promise<ControlReply>
export type ControlRouter = Router<ControlHandler>

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: string[]
  ) {
    super(message)
  }
}

export function reply(body: unknown, status = 200): ControlReply {
  return { status, body }
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {})
  if (!parsed.success) {
    throw new ControlError(
      400,
      "invalid request body",
      parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    )
  }
  return parsed.data
}

export function createControlMount(router: ControlRouter, onError: (err: unknown) => void): Mount {
  return {
    prefix: "/_sandbox",
    async handle(req: SandboxRequest) {
      const route = router.match(req.method, req.path)
      if (route.kind === "not-found") {
        return json(404, { error: `no control endpoint ${req.method} ${req.fullPath}` })
      }
      if (route.kind === "method-not-allowed") {
        return json(405, { error: `use ${route.allowed.join(" or ")}` }, { allow: route.allowed.join(", ") })
      }
      let body: unknown
      if (req.body.length > 0) {
        try {
          body = JSON.parse(req.body.toString("utf8"))
        } catch {
          return json(400, { error: "body is not valid JSON" })
        }
      }
      try {
        const out = await route.handler({ params: route.params, query: req.query, body })
        return json(out.status, out.body)
      } catch (err) {
        if (err instanceof ControlError) {
          return json(err.status, { error: err.message, ...(err.issues ? { issues: err.issues } : {}) })
        }
        onError(err)
        return json(500, { error: (err as Error).message })
      }
    },
  }
}

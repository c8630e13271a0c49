/**
 * Path templates with `{name}` segments, matched segment by segment. The outcome
 * tells "no such path" from "path exists, other method", because the hosted API
 * answers those differently (404 and 405) and the caller decides the body.
 */

interface Route<H> {
  method: string
  template: string
  /** The template with parameter names blanked: `/a/{x}` and `/a/{y}` are one path. */
  shape: string
  segments: string[]
  literals: number
  handler: H
}

export type RouteOutcome<H> =
  | { kind: "match"; handler: H; params: Record<string, string>; template: string }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" }

export class Router<H> {
  private readonly routes: Route<H>[] = []

  add(method: string, template: string, handler: H): this {
    const segments = splitPath(template)
    this.routes.push({
      method: method.toUpperCase(),
      template,
      shape: segments.map((s) => (isParam(s) ? "{}" : s)).join("/"),
      segments,
      literals: segments.filter((s) => !isParam(s)).length,
      handler,
    })
    return this
  }

  /** Every `METHOD /template` known, e.g. for checking fault targets. */
  endpoints(): string[] {
    return this.routes.map((r) => `${r.method} ${r.template}`)
  }

  match(method: string, path: string): RouteOutcome<H> {
    const parts = splitPath(path)
    let best: Route<H> | undefined
    for (const route of this.routes) {
      // The most literal template wins, so `/checkout/3ds/{id}` beats `/checkout/{a}/{b}`.
      if (matchSegments(route.segments, parts) && (!best || route.literals > best.literals)) {
        best = route
      }
    }
    if (!best) {
      return { kind: "not-found" }
    }
    const samePath = this.routes.filter((r) => r.shape === best.shape)
    const route = samePath.find((r) => r.method === method.toUpperCase())
    if (!route) {
      return { kind: "method-not-allowed", allowed: samePath.map((r) => r.method) }
    }
    const params = matchSegments(route.segments, parts) ?? {}
    return { kind: "match", handler: route.handler, params, template: route.template }
  }
}

function splitPath(path: string): string[] {
  // A leading slash is implied; an empty segment (`//`, trailing `/`) stays and matches nothing.
  return path.replace(/^\//, "").split("/")
}

function isParam(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}")
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | undefined {
  if (template.length !== parts.length) {
    return undefined
  }
  const params: Record<string, string> = {}
  for (let i = 0; i < template.length; i++) {
    const segment = template[i]
    const part = parts[i]
    if (isParam(segment)) {
      if (part === "") {
        return undefined
      }
      try {
        params[segment.slice(1, -1)] = decodeURIComponent(part)
      } catch {
        return undefined
      }
    } else if (segment !== part) {
      return undefined
    }
  }
  return params
}

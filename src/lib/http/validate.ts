import type { z } from "zod"
import { InvalidRequestError, UnexpectedResponseError } from "./http-errors"

/**
 * zod issues as one readable line. Only paths and zod's own messages are used,
 * never the rejected values, so a card token in a bad request cannot leak.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ")
}

/** The first named variant a refinement attached (`ctx.addIssue({ params: { variant } })`). */
function variantOf(issues: readonly z.core.$ZodIssue[]): string | undefined {
  for (const issue of issues) {
    const variant = (issue as { params?: { variant?: unknown } }).params?.variant
    if (typeof variant === "string") {
      return variant
    }
  }
  return undefined
}

/** Validates a request before anything is sent; throws `InvalidRequestError` with code `CLIENT_VALIDATION`. */
export function validateRequest<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) {
    return result.data
  }
  const issues = result.error.issues
  const first = issues[0]
  return failValidation(`Invalid ${what}: ${describeIssues(issues)}`, variantOf(issues), first?.path.join("."))
}

/**
 * Checks a path parameter before it goes into a URL (an id holding `/` or `..`
 * would change the path); a refusal names the parameter as its `field`.
 */
export function pathParam(schema: z.ZodType<string>, value: unknown, field: string): string {
  const result = schema.safeParse(value)
  if (result.success) {
    return result.data
  }
  const issues = result.error.issues
  return failValidation(`Invalid ${field}: ${describeIssues(issues)}`, variantOf(issues), field)
}

function failValidation(message: string, variant: string | undefined, field: string | undefined): never {
  throw new InvalidRequestError({ code: "CLIENT_VALIDATION", message, variant, field: field || undefined })
}

/** Parses a response body; a body the spec does not allow becomes `UnexpectedResponseError`. */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  what: string,
  meta: { status?: number; requestId?: string } = {}
): z.output<S> {
  const result = schema.safeParse(body)
  if (result.success) {
    return result.data
  }
  throw new UnexpectedResponseError({
    code: "UNEXPECTED_RESPONSE",
    message: `Unexpected ${what} response: ${describeIssues(result.error.issues)}`,
    status: meta.status,
    requestId: meta.requestId,
  })
}

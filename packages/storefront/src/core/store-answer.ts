import { TwPaymentError } from "./payment-error.js"

/** A store answer as the kit maps it: its HTTP status and JSON body. */
export interface StoreAnswer {
  status: number
  body: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** The `code` and `message` of an error answer's body, as Medusa's error handler writes them. */
export function errorFields(body: unknown): { code: string | undefined; message: string | undefined } {
  const fields = isRecord(body) ? body : {}
  return {
    code: typeof fields.code === "string" && fields.code ? fields.code : undefined,
    message: typeof fields.message === "string" && fields.message ? fields.message : undefined,
  }
}

/**
 * The answer a failed js-sdk call got. The SDK throws a `FetchError` holding
 * the status and the body's `message` only (2.18 to 2.21 drop the rest of
 * the body, `code` included); a `code` or `body` an SDK keeps is passed on.
 * Undefined when no answer came (a network failure): that error is rethrown.
 */
export function answerOfError(error: unknown): StoreAnswer | undefined {
  if (!(error instanceof Error) || !("status" in error) || typeof error.status !== "number") {
    return undefined
  }
  const kept = error as Error & { status: number; code?: unknown; body?: unknown }
  if (isRecord(kept.body)) {
    return { status: kept.status, body: kept.body }
  }
  return { status: kept.status, body: { message: kept.message, ...(typeof kept.code === "string" ? { code: kept.code } : {}) } }
}

/** An error answer as the kit's error, keeping the server's code and message. */
export function storeError(answer: StoreAnswer): TwPaymentError {
  const { code, message } = errorFields(answer.body)
  return new TwPaymentError(message ?? `The store answered ${answer.status}.`, { code, status: answer.status })
}

/** Runs a store call; an error answer becomes a `TwPaymentError` with the server's code and message. */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const answer = answerOfError(error)
    throw answer ? storeError(answer) : error
  }
}

import { z } from "zod"
import type { Persistable } from "./state"

/**
 * Injected failures. API faults hit matching requests to a mounted API (by merchant
 * and `METHOD /template`); notification faults hit matching outgoing notifications.
 * Each fault is used up after `count` hits (default 1).
 */

const common = {
  merchantId: z.string().min(1).optional(),
  count: z.int().min(1).default(1),
}

const apiCommon = {
  ...common,
  /** Which mounted API: the hosted API or the embedded `/v1` API. */
  api: z.enum(["hosted", "embedded"]).default("hosted"),
  /**
   * `METHOD /template` relative to the API base, e.g. `POST /checkout` (hosted) or
   * `POST /v1/refunds` (embedded); omitted: every endpoint.
   */
  endpoint: z.string().min(1).optional(),
}

export const faultInputSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    ...apiCommon,
    kind: z.literal("http500"),
    /** Whether the request is carried out before the 500 is returned. */
    applied: z.boolean().default(false),
  }),
  z.strictObject({
    ...apiCommon,
    kind: z.literal("timeout"),
    /** Real milliseconds the response is held, longer than the client's time-out. */
    holdMs: z.int().min(0).max(600_000).default(30_000),
    /** After the hold: send the response, or close the connection without one. */
    then: z.enum(["answer", "drop"]).default("answer"),
    /** Whether the request is carried out (its effects exist even though the caller never learns it). */
    applied: z.boolean().default(true),
  }),
  z.strictObject({
    ...apiCommon,
    api: z.literal("hosted").default("hosted"),
    kind: z.literal("c026"),
    /** Whether the charge really happened behind the 409. */
    applied: z.boolean().default(true),
  }),
  z.strictObject({
    ...apiCommon,
    api: z.literal("embedded").default("embedded"),
    kind: z.literal("refundReconciliation"),
    /** Whether the refund really was created behind the 409 `REFUND_RECONCILIATION_REQUIRED`. */
    applied: z.boolean().default(true),
  }),
  z.strictObject({
    ...common,
    api: z.literal("hosted").default("hosted"),
    kind: z.literal("drop"),
    purpose: z.string().min(1).optional(),
  }),
  z.strictObject({
    ...common,
    api: z.literal("hosted").default("hosted"),
    kind: z.literal("duplicate"),
    purpose: z.string().min(1).optional(),
  }),
  z.strictObject({
    ...common,
    api: z.literal("hosted").default("hosted"),
    kind: z.literal("delay"),
    purpose: z.string().min(1).optional(),
    seconds: z.int().min(1),
  }),
  z.strictObject({
    ...common,
    api: z.literal("hosted").default("hosted"),
    kind: z.literal("reorder"),
    purpose: z.string().min(1).optional(),
  }),
])
export type FaultInput = z.output<typeof faultInputSchema>
export type Fault = FaultInput & { id: number; remaining: number; createdAt: string }

export type ApiFaultKind = "http500" | "timeout" | "c026" | "refundReconciliation"
export type NotificationFaultKind = "drop" | "duplicate" | "delay" | "reorder"
export type ApiFault = Extract<Fault, { kind: ApiFaultKind }>
export type NotificationFault = Extract<Fault, { kind: NotificationFaultKind }>

const API_KINDS: readonly string[] = ["http500", "timeout", "c026", "refundReconciliation"]

export function isApiFault(fault: Fault): fault is ApiFault {
  return API_KINDS.includes(fault.kind)
}

export class FaultRegistry implements Persistable {
  readonly name = "faults"
  private faults: Fault[] = []
  private seq = 0

  constructor(private readonly now: () => Date) {}

  add(input: FaultInput): Fault {
    const fault = { ...input, id: ++this.seq, remaining: input.count, createdAt: this.now().toISOString() } as Fault
    this.faults.push(fault)
    return fault
  }

  list(): Fault[] {
    return this.faults
  }

  clear(): void {
    this.faults = []
  }

  /** Uses up one hit of the first matching API fault of the given kinds. */
  takeApi(request: { api: string; merchantId: string; endpoint: string }, kinds: ApiFaultKind[]): ApiFault | undefined {
    return this.take(
      (f): f is ApiFault =>
        isApiFault(f) &&
        kinds.includes(f.kind) &&
        f.api === request.api &&
        (f.merchantId === undefined || f.merchantId === request.merchantId) &&
        (f.endpoint === undefined || f.endpoint === request.endpoint)
    )
  }

  takeNotification(notification: { api: string; merchantId: string; purpose: string }): NotificationFault | undefined {
    return this.take(
      (f): f is NotificationFault =>
        !isApiFault(f) &&
        f.api === notification.api &&
        (f.merchantId === undefined || f.merchantId === notification.merchantId) &&
        (f.purpose === undefined || f.purpose === notification.purpose)
    )
  }

  private take<F extends Fault>(match: (f: Fault) => f is F): F | undefined {
    const fault = this.faults.find(match)
    if (!fault) {
      return undefined
    }
    fault.remaining--
    if (fault.remaining <= 0) {
      this.faults = this.faults.filter((f) => f !== fault)
    }
    return fault
  }

  dump(): unknown {
    return { seq: this.seq, faults: this.faults }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; faults?: Fault[] }
    this.seq = saved.seq ?? 0
    this.faults = saved.faults ?? []
  }

  reset(): void {
    this.faults = []
  }
}

import { z } from "zod"

/**
 * Success envelope of the hosted API (spec 2.1): `{ code: "S0000", data, message }`.
 * The code is checked before this is parsed (any other code is a failure); a
 * missing or malformed `data` is an unexpected answer. Other keys are dropped,
 * not copied: only `data` is read.
 */
export const envelope = <S extends z.ZodType>(data: S) => z.object({ data })

/**
 * A failure answer's body: `{ code, message, data }`, with `detail` on `K0001`.
 * Each field is read on its own, so one odd field does not hide the others;
 * plain-text answers (403 from the firewall, 405) do not parse at all.
 */
export const errorEnvelope = z.looseObject({
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  detail: z.unknown().optional(),
})

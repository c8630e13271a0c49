import { z } from "zod"

/** Success envelope of every embedded-API response: `{ data, requestId }` (spec 2); other keys are dropped. */
export const envelope = <S extends z.ZodType>(data: S) => z.object({ data, requestId: z.string().min(1) })

/** Error envelope of spec 7: `{ error: { code, message, field }, requestId }`. */
export const errorEnvelope = z.looseObject({
  error: z.looseObject({
    code: z.string().min(1),
    message: z.string().optional(),
    field: z.string().nullish(),
  }),
  requestId: z.string().optional(),
})

/**
 * A list page. The spec does not show list bodies; this is the project's choice,
 * and the sandbox serves the same shape.
 */
export const listPage = <S extends z.ZodType>(item: S) => z.looseObject({ items: z.array(item), hasMore: z.boolean() })

export interface ListPage<T> {
  items: T[]
  hasMore: boolean
}

/** Body of a DELETE (project's choice, not shown in the spec). */
export const deletedResource = z.looseObject({ id: z.string().min(1), deleted: z.literal(true) })

export type DeletedResource = z.output<typeof deletedResource>

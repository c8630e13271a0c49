import { z } from "zod"
import { maxChars } from "./embedded-fields"

/** Metadata limits of spec 2.1 / 8, the same for payment intents and refunds. */
export const METADATA_LIMITS = {
  maxPairs: 20,
  maxKeyLength: 40,
  maxValueLength: 500,
  /** "8 KB total", measured as the UTF-8 bytes of the metadata's JSON. */
  maxBytes: 8 * 1024,
} as const

const metadataKey = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_]{1,${METADATA_LIMITS.maxKeyLength}}$`),
    `Key must be 1 to ${METADATA_LIMITS.maxKeyLength} letters, digits or underscores`
  )

/** Metadata a request may carry. */
export const metadataParams = z
  .record(metadataKey, maxChars(METADATA_LIMITS.maxValueLength))
  .superRefine((metadata, ctx) => {
    if (Object.keys(metadata).length > METADATA_LIMITS.maxPairs) {
      ctx.addIssue({ code: "custom", message: `At most ${METADATA_LIMITS.maxPairs} pairs` })
    }
    if (Buffer.byteLength(JSON.stringify(metadata), "utf8") > METADATA_LIMITS.maxBytes) {
      ctx.addIssue({ code: "custom", message: `At most ${METADATA_LIMITS.maxBytes} bytes in total` })
    }
  })

/** Metadata as the service returns it; always an object for callers, empty when absent. */
export const metadataRecord = z.record(z.string(), z.string()).default({})

export type Metadata = Record<string, string>

import { z } from "@medusajs/framework/zod"
import type { z as pluginZod } from "zod"
import { describeIssues } from "../lib/http/validate"

/**
 * A schema of the plugin's own zod (4.6: src/lib, src/providers) as the
 * framework's `validateAndTransformBody` takes one (its zod 4.2). Checking a
 * 4.6 schema against the framework's types exhausts tsc's memory, and the
 * framework's messages drop the path of refinement issues; here each issue
 * becomes a message that names its field (`invoice.carrierId: must be …`).
 */
export function pluginSchema<S extends pluginZod.ZodType>(schema: S) {
  return z.unknown().transform(async (value, ctx): Promise<pluginZod.output<S>> => {
    const result = await schema.safeParseAsync(value ?? {})
    if (result.success) {
      return result.data
    }
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: "custom", path: [...issue.path], message: describeIssues([issue]) })
    }
    return z.NEVER
  })
}

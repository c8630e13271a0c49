import { type MedusaNextFunction, type MedusaRequest, type MedusaResponse, validateAndTransformBody } from "@medusajs/framework/http"
import { z } from "@medusajs/framework/zod"
import type { z as pluginZod } from "zod"
import { describeIssues } from "../lib/http/validate"
import { codeForIssues, withShopperCode } from "../providers/core/shopper-error-codes"

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

/**
 * `validateAndTransformBody` of a plugin schema for a store route: its refusal
 * (the framework's, message unchanged) carries the shopper code its issues
 * tell (`codeForIssues`: an e-invoice field, or `payment_data_invalid`), which
 * the framework's validator cannot add.
 */
export function validatePluginBody<S extends pluginZod.ZodType>(schema: S) {
  const validate = validateAndTransformBody(pluginSchema(schema))
  return (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) =>
    validate(req, res, (error?: unknown) => {
      if (error) {
        const parsed = schema.safeParse(req.body ?? {})
        withShopperCode(error, codeForIssues(parsed.success ? [] : parsed.error.issues))
      }
      next(error)
    })
}

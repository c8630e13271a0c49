/** The languages the kit's messages come in. */
export type KitLocale = "en" | "zh-TW"

/**
 * The kit's language for a storefront's locale: Traditional Chinese for
 * Taiwan and for Chinese in the traditional script (`zh-TW`, `zh-Hant`,
 * `zh-Hant-TW`, plain `zh`, in any case, `_` or `-`), English otherwise.
 */
export function pickLocale(locale: string | null | undefined): KitLocale {
  const tag = (locale ?? "").trim().replace(/_/g, "-").toLowerCase()
  return tag === "zh" || tag === "zh-tw" || tag.startsWith("zh-tw-") || tag === "zh-hant" || tag.startsWith("zh-hant-") ? "zh-TW" : "en"
}

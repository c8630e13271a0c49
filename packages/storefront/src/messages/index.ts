import { en, type ErrorCode } from "./en.js"
import type { KitTextKey, MessageCatalogue, MessageLocale } from "./types.js"
import { zhTW } from "./zh-TW.js"

export type { ErrorCode } from "./en.js"
export type { KitTextKey, KitTexts, MessageCatalogue, MessageLocale } from "./types.js"
export { en, zhTW }

/** Every catalogue, by locale. */
export const MESSAGES: Readonly<Record<MessageLocale, MessageCatalogue<ErrorCode>>> = { en, "zh-TW": zhTW }

const has = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key)

/**
 * The shopper's text for a code: an error code of the plugin's answers and
 * session data (`code`, `errorCode`) or of the kit, or one of the kit's own
 * texts (`cvs_instructions`, `atm_instructions`, `generic_error`). A code the
 * catalogue does not know gives the generic text in that language. `{name}`
 * placeholders are filled from `params`; one without a value stays as it is.
 */
export function messageFor(code: string, locale: MessageLocale, params?: Record<string, string>): string {
  const catalogue = MESSAGES[locale] ?? MESSAGES.en
  const errors = catalogue.errors as Readonly<Record<string, string>>
  const text = has(errors, code) ? errors[code] : has(catalogue.texts, code) ? catalogue.texts[code as KitTextKey] : catalogue.texts.generic_error
  return params ? text.replace(/\{(\w+)\}/g, (placeholder, name: string) => (has(params, name) ? params[name] : placeholder)) : text
}

/** The languages of the kit's messages: English and Traditional Chinese as used in Taiwan. */
export type MessageLocale = "en" | "zh-TW"

/**
 * The kit's own texts, beside the error codes. Placeholders are `{name}`,
 * filled from `messageFor`'s `params`; the caller formats the values (an
 * amount with its thousands separators, a date in the shopper's time zone).
 */
export interface KitTexts {
  /** A convenience-store code to pay: `{amount}` (TWD), `{code}`, `{expires_at}`. */
  cvs_instructions: string
  /** A virtual bank account to transfer to: `{amount}` (TWD), `{bank_name}`, `{bank_code}`, `{account}`, `{expires_at}`. */
  atm_instructions: string
  /** Any code the catalogue does not know. */
  generic_error: string
}

export type KitTextKey = keyof KitTexts

/**
 * One language's messages: a text for each error code (the `code` of the
 * plugin's answers and the `errorCode` of its session data, plain strings: the
 * kit does not import the plugin) and the kit's own texts.
 */
export interface MessageCatalogue<Code extends string = string> {
  errors: Readonly<Record<Code, string>>
  texts: Readonly<KitTexts>
}

import en from "./json/en.json"
import zhTW from "./json/zhTW.json"

/**
 * The plugin's admin texts, merged by the dashboard into its own `translation` namespace (Medusa's admin
 * translations, 2.11.1 and later). Every key sits under `twPayment` so it never overrides the dashboard's.
 * `zhTW` is the dashboard's code for 繁體中文(臺灣); other languages fall back to English.
 */
export default {
  en: { translation: en },
  zhTW: { translation: zhTW },
}

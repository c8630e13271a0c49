import { pickLocale } from "../src/core/locale.js"

describe("pickLocale", () => {
  it.each(["zh-TW", "zh-Hant", "zh", "zh-Hant-TW", "zh_TW", "ZH-hant-tw", "zh-Hant-HK", " zh-tw "])("%s reads Traditional Chinese", (locale) => {
    expect(pickLocale(locale)).toBe("zh-TW")
  })

  it.each(["en", "en-US", "zh-CN", "zh-Hans", "zh-Hans-TW", "ja-JP", "", null, undefined])("%s reads English", (locale) => {
    expect(pickLocale(locale)).toBe("en")
  })
})

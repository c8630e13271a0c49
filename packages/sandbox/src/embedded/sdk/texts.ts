/** The SDK's own words, in the two locales the payment frame speaks. */
export type Locale = "zh-TW" | "en"

export interface Texts {
  notMounted: string
  incomplete: string
  busy: string
  network: string
  challenge: string
}

export const TEXTS: Record<Locale, Texts> = {
  "zh-TW": {
    notMounted: "付款表單尚未載入",
    incomplete: "請完整填寫卡片資料",
    busy: "付款處理中，請稍候",
    network: "無法連線到付款服務",
    challenge: "3D 驗證",
  },
  en: {
    notMounted: "The payment form is not mounted",
    incomplete: "Please complete your card details",
    busy: "A payment is already being confirmed",
    network: "Could not reach the payment service",
    challenge: "3-D Secure verification",
  },
}

import type { ErrorCode } from "./en.js"
import type { MessageCatalogue } from "./types.js"

/**
 * 繁體中文（臺灣）: the same codes as en.ts (the type holds them to the same
 * keys), in the words Taiwanese shoppers meet at checkout: 信用卡、超商代碼、
 * 虛擬帳號、電子發票、統一編號、手機條碼、自然人憑證條碼.
 */
export const zhTW: MessageCatalogue<ErrorCode> = {
  errors: {
    // 金額與商店送出的資料
    currency_not_twd: "此付款方式僅接受新臺幣（TWD）付款。",
    amount_not_whole_twd: "付款金額必須是新臺幣整數金額，且至少 1 元。",
    payment_data_invalid: "付款資料無法受理，請重新整理頁面後再試一次。",
    payment_method_not_offered: "本商店未提供您選擇的付款方式，請改選其他付款方式。",

    // 電子發票
    invoice_carrier_invalid:
      "電子發票載具號碼有誤：手機條碼為「/」加 7 碼，自然人憑證條碼為 2 碼英文字母加 14 碼數字。請確認後重新輸入，或改選其他發票開立方式。",
    invoice_tax_id_invalid: "統一編號有誤，請輸入公司的 8 碼統一編號。",
    invoice_invalid: "電子發票資料不完整或格式有誤，請檢查發票欄位。",
    invoice_buyer_incomplete: "開立電子發票需要買受人的姓名與電子郵件，請先填寫帳單姓名與電子郵件。",

    // 金流服務的回覆
    payment_rejected: "金流服務未受理這筆付款，請改用其他付款方式，或與商店聯絡。",
    payment_amount_over_limit: "付款金額超過金流服務可受理的上限，請降低金額或改用其他付款方式。",
    payment_service_unavailable: "目前無法連線至金流服務，這次沒有建立任何付款，請稍後再試。",
    payment_outcome_unknown: "目前無法確認付款是否成功，請先不要重複付款，幾分鐘後再查看訂單狀態。",
    payment_unavailable: "此付款方式目前無法使用，請改用其他付款方式，或與商店聯絡。",
    payment_session_mismatch: "付款資料與本次結帳不符，請重新付款。",
    payment_session_invalid: "找不到這筆付款，請重新付款。",

    // 付款頁面的拒絕代碼
    card_declined_t0001: "信用卡資料未通過驗證，請確認卡號、有效期限與安全碼，或改用其他信用卡。",
    card_declined_t0002: "這筆金額超過信用卡的可用額度，請改用其他信用卡或其他付款方式。",
    card_declined_t0003: "發卡銀行拒絕了這筆交易，請改用其他信用卡或其他付款方式，或洽詢發卡銀行。",
    card_declined_t0004: "這筆付款疑似與先前的付款重複，已被拒絕。請先確認信用卡帳單，再決定是否重新付款。",
    card_declined_t0005: "信用卡扣款失敗，請再試一次，或改用其他付款方式。",

    // 信用卡付款失敗
    card_declined: "發卡銀行拒絕了這張信用卡的交易，請改用其他信用卡或其他付款方式。",
    card_not_supported: "本商店不接受此類信用卡，請改用其他信用卡。",
    card_insufficient_funds: "信用卡可用額度不足，請改用其他信用卡或其他付款方式。",
    card_expired: "這張信用卡已過期，請改用其他信用卡。",
    card_invalid_number: "信用卡卡號有誤，請確認後重新輸入。",
    card_invalid_cvv: "信用卡安全碼（背面末三碼）有誤，請確認後重新輸入。",
    card_risk_declined: "這筆交易未通過金流服務的安全審核，請改用其他付款方式。",
    card_duplicate_payment: "這筆付款與先前的付款重複，已被拒絕。請先確認信用卡帳單，再決定是否重新付款。",
    three_d_secure_failed: "3D 驗證失敗，請再試一次，或改用其他信用卡。",
    three_d_secure_canceled: "您已取消 3D 驗證，付款未完成，請再試一次。",
    three_d_secure_timeout: "3D 驗證逾時，付款未完成，請再試一次。",
    payment_failed: "付款失敗，請再試一次，或改用其他付款方式。",

    // 付款頁面、繳費代碼與付款結果
    payment_page_expired: "付款頁面已逾時，付款未完成，請重新付款。",
    payment_code_expired: "已超過繳費期限，超商代碼或虛擬帳號已失效，這筆款項未付款。",
    payment_pending: "付款確認中，請勿重複付款。付款確認後，訂單會自動成立。",
    payment_not_completed: "付款尚未完成，訂單未成立，請重新付款。",

    // 購物車
    cart_already_paid: "這個購物車已完成付款。",
    cart_already_completed: "這個購物車已完成結帳。",
    cart_not_found: "找不到這個購物車，請重新整理頁面。",
    cart_not_yours: "這個購物車不屬於您的帳號，無法以您儲存的信用卡付款。",

    // 儲存的信用卡
    saved_card_login_required: "請先登入會員，才能使用儲存的信用卡付款。",
    saved_cards_not_offered: "本商店不提供以儲存的信用卡付款。",
    saved_card_not_yours: "這張信用卡不是您儲存的信用卡，請重新選擇付款方式。",
    saved_card_unavailable: "這張儲存的信用卡已無法使用，這次沒有扣款。請改用其他信用卡或其他付款方式。",
    saved_card_refused: "您儲存的信用卡無法扣款，這次沒有扣款。請改用其他信用卡或其他付款方式。",
    saved_card_not_charged: "您儲存的信用卡尚未扣款，請重新付款。",
    saved_card_charge_refunded: "這次結帳以儲存的信用卡支付的款項已退還，請重新付款。",
    saved_card_cart_changed: "選擇信用卡後，購物車內容有所變更，請重新選擇付款方式。",
    saved_card_not_found: "找不到這張信用卡。",
    saved_card_binding_failed: "無法開啟信用卡綁定頁面，請稍後再試。",

    // 訂閱（定期付款）
    subscription_checkout_expired: "這次訂閱結帳已失效，請重新開始訂閱結帳。",
    subscription_cart_changed: "訂閱結帳開始後，購物車內容有所變更，請重新開始訂閱結帳。",
    subscription_not_yours: "這個訂閱屬於其他會員。",
    subscription_cart_empty: "購物車是空的，請先加入訂閱商品。",
    subscription_cart_multiple_items: "訂閱的購物車只能放一項訂閱商品，請移除其他商品，或另外下單購買。",
    subscription_plan_not_offered: "目前未提供這個訂閱方案。",
    subscription_plan_variant_mismatch: "購物車中的商品不是這個訂閱方案的商品。",
    subscription_provider_unavailable: "本商店目前無法以定期付款結帳，請與商店聯絡。",
    subscription_start_too_far: "這個方案的首次扣款日在 12 個月以後，無法訂閱。",
    subscription_not_found: "找不到這個訂閱。",
    subscription_not_cancellable: "這個訂閱目前無法取消（可能已結束、剛開始，或正在扣款），請稍後再試。",
    subscription_cancel_failed: "無法確認取消結果，訂閱沒有任何變更，請再試一次。",
  },
  texts: {
    cvs_instructions: "請於 {expires_at} 前，持繳費代碼 {code} 至超商繳納 NT${amount}。",
    atm_instructions: "請於 {expires_at} 前，轉帳 NT${amount} 至 {bank_name}（銀行代碼 {bank_code}）虛擬帳號 {account}。",
    generic_error: "付款未完成，請再試一次，或改用其他付款方式。",
  },
}

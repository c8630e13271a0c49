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
  /**
   * The React components' labels (`medusa-payment-tw-storefront/react`): payment options, pay
   * buttons, the card form, the e-invoice choice, saved cards, plans, subscriptions, the return page.
   * `{name}` placeholders as above.
   */
  payment_options_legend: string
  option_hosted_card: string
  option_hosted_cvs: string
  option_hosted_atm: string
  option_hosted_linePay: string
  option_embedded_card: string
  option_saved_card: string
  payment_options_empty: string
  loading: string
  busy: string
  pay_hosted: string
  pay_now: string
  card_form_label: string
  card_form_incomplete: string
  card_form_load_failed: string
  invoice_legend: string
  invoice_kind_member: string
  invoice_kind_mobile_barcode: string
  invoice_kind_citizen_certificate: string
  invoice_kind_company: string
  invoice_barcode_label: string
  invoice_certificate_label: string
  invoice_tax_id_label: string
  invoice_company_name_label: string
  invoice_email_label: string
  invoice_company_name_invalid: string
  invoice_email_invalid: string
  saved_cards_title: string
  saved_cards_empty: string
  saved_card_add: string
  saved_card_delete: string
  saved_card_name: string
  saved_card_name_pending: string
  saved_card_status_binding: string
  saved_card_status_active: string
  saved_card_status_failed: string
  saved_card_picker_legend: string
  saved_card_pay: string
  plan_picker_legend: string
  plan_every_month: string
  plan_every_months: string
  plan_periods: string
  plan_until_cancelled: string
  plans_empty: string
  subscribe: string
  subscriptions_title: string
  subscriptions_empty: string
  subscription_cancel: string
  subscription_amount: string
  subscription_next_charge: string
  subscription_status_pending: string
  subscription_status_pending_first_charge: string
  subscription_status_active: string
  subscription_status_retrying: string
  subscription_status_stopped: string
  subscription_status_completed: string
  subscription_status_cancelled: string
  return_checking: string
  return_order_placed: string
  return_no_cart: string
  return_no_payment: string
  return_to_checkout: string
  /** The whole payment step (`CheckoutPayment`) and the order's payment (`OrderPaymentStatus`). */
  checkout_payment_not_ready: string
  subscription_checkout_intro: string
  order_payment_title: string
  order_payment_paid: string
  order_payment_awaiting: string
  order_payment_authorized: string
  order_payment_refunded: string
  order_payment_canceled: string
  payment_method_card: string
  payment_method_cvs: string
  payment_method_atm: string
  payment_method_linePay: string
  payment_method_applePay: string
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

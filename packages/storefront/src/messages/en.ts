import type { MessageCatalogue } from "./types.js"

/**
 * English texts for every code the plugin's answers and session data carry
 * (medusa-payment-tw's `src/providers/core/shopper-error-codes.ts`, listed in
 * its docs/providers.md), and for the kit's own codes. A test of the plugin
 * fails when a code has no text here or in zh-TW.ts, or a key here is no code.
 */
const errors = {
  // amounts and what the storefront sent
  currency_not_twd: "This payment method takes New Taiwan dollars (TWD) only.",
  amount_not_whole_twd: "The amount to pay must be a whole number of New Taiwan dollars, at least NT$1.",
  payment_data_invalid: "The payment details could not be accepted. Reload the page and try again.",
  payment_method_not_offered: "This shop does not offer the chosen payment method. Choose another one.",

  // e-invoice
  invoice_carrier_invalid:
    "The e-invoice carrier was not accepted. A mobile barcode is '/' followed by 7 characters; a citizen digital certificate number is 2 letters followed by 14 digits. Check it, or choose another invoice option.",
  invoice_tax_id_invalid: "The company tax ID (unified business number) was not accepted. Enter the company's 8-digit number.",
  invoice_invalid: "The e-invoice details are incomplete or not valid. Check the invoice fields.",
  invoice_buyer_incomplete: "The e-invoice needs the buyer's name and email. Fill in the billing name and email first.",

  // the payment service's answers
  payment_rejected: "The payment service did not accept this payment. Choose another payment method, or contact the shop.",
  payment_amount_over_limit: "The amount is more than the payment service accepts. Lower the amount, or choose another payment method.",
  payment_service_unavailable: "The payment service could not be reached, and no payment was started. Please try again in a moment.",
  payment_outcome_unknown: "We could not confirm whether the payment went through. Do not pay again yet; check your order in a few minutes.",
  payment_unavailable: "This payment method is not available right now. Choose another payment method, or contact the shop.",
  payment_session_mismatch: "The payment details do not match this checkout. Please start the payment again.",
  payment_session_invalid: "This payment could not be found. Please start the payment again.",

  // hosted checkout declines
  card_declined_t0001: "The card details were not accepted. Check the card number, expiry date and security code, or use another card.",
  card_declined_t0002: "The payment is over the card's credit limit. Use another card or another payment method.",
  card_declined_t0003: "Your card issuer declined the payment. Use another card or another payment method, or contact your bank.",
  card_declined_t0004: "The payment was stopped because it looked like a duplicate of an earlier one. Check your card statement before you pay again.",
  card_declined_t0005: "The card could not be charged. Please try again, or use another payment method.",

  // card failures
  card_declined: "The card was declined by its issuer. Use another card or another payment method.",
  card_not_supported: "This type of card is not accepted. Use another card.",
  card_insufficient_funds: "The card's available credit is not enough for this payment. Use another card or another payment method.",
  card_expired: "The card has expired. Use another card.",
  card_invalid_number: "The card number is not valid. Check it and try again.",
  card_invalid_cvv: "The security code (CVV) is wrong. Check it and try again.",
  card_risk_declined: "The payment did not pass the payment service's security checks. Choose another payment method.",
  card_duplicate_payment: "The payment was refused as a duplicate of an earlier one. Check your card statement before you pay again.",
  three_d_secure_failed: "The card's 3-D Secure verification failed. Try again, or use another card.",
  three_d_secure_canceled: "The 3-D Secure verification was cancelled, so the payment was not made. Please try again.",
  three_d_secure_timeout: "The 3-D Secure verification took too long, so the payment was not made. Please try again.",
  payment_failed: "The payment did not go through. Try again, or choose another payment method.",

  // pages, codes and outcomes
  payment_page_expired: "The payment page timed out before the payment was finished. Please start the payment again.",
  payment_code_expired: "The payment deadline has passed: the convenience-store code or bank account number is no longer valid, and nothing was paid.",
  payment_pending: "Your payment is being confirmed. Do not pay again: your order is placed automatically once it is confirmed.",
  payment_not_completed: "The payment was not completed, so no order was placed. Please pay again.",

  // the cart
  cart_already_paid: "This cart has already been paid.",
  cart_already_completed: "This cart has already been checked out.",
  cart_not_found: "This cart could not be found. Reload the page.",
  cart_not_yours: "This cart does not belong to your account, so it cannot be paid with your saved card.",

  // saved cards
  saved_card_login_required: "Log in to pay with a saved card.",
  saved_cards_not_offered: "This shop does not take payments with saved cards.",
  saved_card_not_yours: "This card is not one of your saved cards. Choose a payment method again.",
  saved_card_unavailable: "This saved card can no longer be used, and nothing was charged. Use another card or another payment method.",
  saved_card_refused: "Your saved card could not be charged, and nothing was charged. Use another card or another payment method.",
  saved_card_not_charged: "Your saved card was not charged. Please pay again.",
  saved_card_charge_refunded: "The payment with your saved card for this checkout was refunded. Please pay again.",
  saved_card_cart_changed: "Your cart changed after you chose the card. Choose a payment method again.",
  saved_card_not_found: "This saved card could not be found.",
  saved_card_binding_failed: "The page for saving a card could not be opened. Please try again later.",

  // subscriptions
  subscription_checkout_expired: "This subscription checkout is no longer valid. Please start the subscription checkout again.",
  subscription_cart_changed: "Your cart changed after the subscription checkout started. Please start the subscription checkout again.",
  subscription_not_yours: "This subscription belongs to another customer.",
  subscription_cart_empty: "Your cart is empty. Add the subscription product first.",
  subscription_cart_multiple_items: "A subscription cart holds exactly one subscription item. Remove the other items, or buy them in a separate order.",
  subscription_plan_not_offered: "This subscription plan is not offered.",
  subscription_plan_variant_mismatch: "The item in your cart is not the product this plan is offered for.",
  subscription_provider_unavailable: "Subscriptions cannot be paid in this shop right now. Please contact the shop.",
  subscription_start_too_far: "This plan's first charge would be 12 months or more away, so it cannot be subscribed to.",
  subscription_not_found: "This subscription could not be found.",
  subscription_not_cancellable: "This subscription cannot be cancelled right now (it may have ended, be just starting, or be being charged). Please try again later.",
  subscription_cancel_failed: "The cancellation could not be confirmed, and the subscription was not changed. Please try again.",
} as const

export type ErrorCode = keyof typeof errors

export const en: MessageCatalogue<ErrorCode> = {
  errors,
  texts: {
    cvs_instructions: "Pay NT${amount} at a convenience store with payment code {code} before {expires_at}.",
    atm_instructions: "Transfer NT${amount} to {bank_name} (bank code {bank_code}), account number {account}, before {expires_at}.",
    generic_error: "The payment did not go through. Please try again, or choose another payment method.",
    // the React components' labels
    payment_options_legend: "Payment method",
    option_hosted_card: "Credit or debit card (payment page)",
    option_hosted_cvs: "Convenience store payment code",
    option_hosted_atm: "ATM bank transfer",
    option_hosted_linePay: "LINE Pay",
    option_embedded_card: "Credit card on this page",
    option_saved_card: "Saved card •••• {last4}",
    payment_options_empty: "No payment method is available for this cart.",
    loading: "Loading…",
    busy: "Please wait…",
    pay_hosted: "Continue to the payment page",
    pay_now: "Pay now",
    card_form_label: "Card details",
    card_form_incomplete: "Enter your card number, expiry date and security code first.",
    card_form_load_failed: "The card form could not be loaded. Check your connection and try again.",
    invoice_legend: "E-invoice",
    invoice_kind_member: "Member carrier",
    invoice_kind_mobile_barcode: "Mobile barcode",
    invoice_kind_citizen_certificate: "Citizen digital certificate",
    invoice_kind_company: "Company invoice (tax ID)",
    invoice_barcode_label: "Mobile barcode (e.g. /ABC+123)",
    invoice_certificate_label: "Citizen digital certificate number",
    invoice_tax_id_label: "Company tax ID (8 digits)",
    invoice_company_name_label: "Company name (optional)",
    invoice_email_label: "Email for the invoice notice (optional)",
    invoice_company_name_invalid: "The company name cannot be blank and has at most 60 characters.",
    invoice_email_invalid: "Enter a valid email address for the invoice notice.",
    saved_cards_title: "Saved cards",
    saved_cards_empty: "You have no saved cards yet.",
    saved_card_add: "Add a card",
    saved_card_delete: "Delete {card}",
    saved_card_name: "Card •••• {last4}",
    saved_card_name_pending: "Card being saved",
    saved_card_status_binding: "Being saved…",
    saved_card_status_active: "Ready to pay",
    saved_card_status_failed: "Not saved",
    saved_card_picker_legend: "Pay with a saved card",
    saved_card_pay: "Pay with this card",
    plan_picker_legend: "Subscription plan",
    plan_every_month: "Charged every month",
    plan_every_months: "Charged every {months} months",
    plan_periods: "{periods} charges",
    plan_until_cancelled: "until you cancel",
    plans_empty: "No subscription plan is offered for this product.",
    subscribe: "Subscribe",
    subscriptions_title: "Subscriptions",
    subscriptions_empty: "You have no subscriptions.",
    subscription_cancel: "Cancel subscription {name}",
    subscription_amount: "NT${amount} per charge",
    subscription_next_charge: "Next charge: {date}",
    subscription_status_pending: "Starting",
    subscription_status_pending_first_charge: "Awaiting the first charge",
    subscription_status_active: "Active",
    subscription_status_retrying: "Retrying a charge",
    subscription_status_stopped: "Stopped",
    subscription_status_completed: "Completed",
    subscription_status_cancelled: "Cancelled",
    return_checking: "Confirming your payment…",
    return_order_placed: "Thank you! Your order #{display_id} is placed.",
    return_no_cart: "There is no checkout to confirm.",
    return_no_payment: "This cart has not been paid yet.",
    return_to_checkout: "Back to checkout",
    checkout_payment_not_ready: "Enter your address and choose a delivery method first.",
    subscription_checkout_intro: "This cart starts a subscription. You pay the first charge on the payment service's page; each later charge is made to the same card.",
    order_payment_title: "Payment",
    order_payment_paid: "Paid",
    order_payment_awaiting: "Awaiting payment",
    order_payment_authorized: "Payment authorized",
    order_payment_refunded: "Refunded",
    order_payment_canceled: "Canceled",
    payment_method_card: "Credit card",
    payment_method_cvs: "Convenience store payment code",
    payment_method_atm: "ATM bank transfer",
    payment_method_linePay: "LINE Pay",
    payment_method_applePay: "Apple Pay",
  },
}

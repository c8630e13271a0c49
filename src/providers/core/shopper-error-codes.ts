import { MedusaError } from "@medusajs/framework/utils"

/**
 * The stable `code` of every error a shopper can meet from this plugin (issue 23).
 * Messages stay English in the API; a storefront translates the code
 * (`medusa-payment-tw-storefront` has a text for each one in English and in
 * Traditional Chinese). Medusa's error handler copies a `MedusaError`'s third
 * argument into the answer's `code`; where a shopper learns of a failure from
 * session data instead (a failed or expired payment), the data's `errorCode`
 * holds one of these. A code, once published, is never renamed or reused.
 *
 * The list is docs/providers.md#shopper-error-codes; add a code there and to the
 * kit's catalogues (packages/storefront/src/messages) with any new one: a unit
 * test fails until every code has both texts.
 */
export const SHOPPER_ERROR = {
  // ---- amounts and what the storefront sent ----
  /** The cart is not in TWD: both services take TWD only. */
  currency_not_twd: "currency_not_twd",
  /** The amount is not a whole number of TWD of at least 1. */
  amount_not_whole_twd: "amount_not_whole_twd",
  /** What the storefront sent was refused: a field of the session data (or of a plugin route's body) is malformed or unknown. */
  payment_data_invalid: "payment_data_invalid",
  /** The storefront asked for a payment method this store does not offer. */
  payment_method_not_offered: "payment_method_not_offered",

  // ---- e-invoice (hosted checkout) ----
  /** The mobile barcode or citizen digital certificate number was not accepted. */
  invoice_carrier_invalid: "invoice_carrier_invalid",
  /** The company's unified business number (統一編號) was not accepted. */
  invoice_tax_id_invalid: "invoice_tax_id_invalid",
  /** Another field of the e-invoice choice is missing or malformed. */
  invoice_invalid: "invoice_invalid",
  /** The e-invoice needs the buyer's name and email, and the cart lacks one. */
  invoice_buyer_incomplete: "invoice_buyer_incomplete",

  // ---- the payment service's answers ----
  /** The service refused the payment request (not a card decline). */
  payment_rejected: "payment_rejected",
  /** The amount is more than the service takes: hosted risk control (`K0001`), embedded over 200,000 TWD (`INVALID_AMOUNT`). */
  payment_amount_over_limit: "payment_amount_over_limit",
  /** The service could not be reached, or did not answer and nothing was started: try again. */
  payment_service_unavailable: "payment_service_unavailable",
  /** The service's answer got lost: whether the payment was made is not known yet; nothing was repeated. */
  payment_outcome_unknown: "payment_outcome_unknown",
  /** The store's payment setup failed (credentials, allowlist, an unexpected answer): the shop must fix it. */
  payment_unavailable: "payment_unavailable",
  /** The session's data belongs to another payment or session (tampered with, or stale). */
  payment_session_mismatch: "payment_session_mismatch",
  /** The payment session has none of the payment's details (it was never opened, or its data is damaged). */
  payment_session_invalid: "payment_session_invalid",

  // ---- declines of the hosted checkout (spec: T0001-T0005; their meanings are the sandbox's) ----
  /** `T0001`: the card details were not accepted (number, expiry or security code). */
  card_declined_t0001: "card_declined_t0001",
  /** `T0002`: the card's credit limit would be exceeded. */
  card_declined_t0002: "card_declined_t0002",
  /** `T0003`: the card issuer refused the payment. */
  card_declined_t0003: "card_declined_t0003",
  /** `T0004`: refused as a duplicate of an earlier payment. */
  card_declined_t0004: "card_declined_t0004",
  /** `T0005`: the charge failed. */
  card_declined_t0005: "card_declined_t0005",

  // ---- card failures (embedded card; the hosted checkout's `failureCode` when a read carries one) ----
  /** The issuer declined the card (`CARD_DECLINED`, hosted `payment_refused`), or a decline without a reason. */
  card_declined: "card_declined",
  /** This type of card is not accepted (`CARD_NOT_SUPPORTED`). */
  card_not_supported: "card_not_supported",
  /** Over the card's credit limit (`CARD_INSUFFICIENT_FUNDS`, hosted `exceeds_credit_limit`). */
  card_insufficient_funds: "card_insufficient_funds",
  /** The card has expired (`CARD_EXPIRED`, hosted `expired_card`). */
  card_expired: "card_expired",
  /** The card number is not valid (`CARD_INVALID_NUMBER`, hosted `invalid_card_number`). */
  card_invalid_number: "card_invalid_number",
  /** The security code is wrong (`CARD_INVALID_CVV`, hosted `invalid_cvv`). */
  card_invalid_cvv: "card_invalid_cvv",
  /** Refused by the service's fraud checks (`CARD_RISK_DECLINED`). */
  card_risk_declined: "card_risk_declined",
  /** Refused as a duplicate payment (hosted `duplicate_payment`). */
  card_duplicate_payment: "card_duplicate_payment",
  /** 3-D Secure verification failed (`3DS_FAILED`). */
  three_d_secure_failed: "three_d_secure_failed",
  /** The shopper cancelled 3-D Secure verification (`3DS_CANCELED`). */
  three_d_secure_canceled: "three_d_secure_canceled",
  /** 3-D Secure verification was not finished in time (`3DS_TIMEOUT`, hosted `3DS_ABANDONED`). */
  three_d_secure_timeout: "three_d_secure_timeout",
  /** The payment failed and the service gave no reason (a failed transaction or intent, hosted `charge_failed`). */
  payment_failed: "payment_failed",

  // ---- pages, codes and outcomes ----
  /** The hosted payment page's 5 minutes passed before the shopper paid (`payment_error=V0002`). */
  payment_page_expired: "payment_page_expired",
  /** The convenience-store code, virtual account or wallet payment expired unpaid (`PAYMENT_EXPIRED`). */
  payment_code_expired: "payment_code_expired",
  /** The payment is being confirmed with the service (409): do not pay again; the order follows once it is. */
  payment_pending: "payment_pending",

  // ---- the cart ----
  /** The cart is already paid: no new payment can start for it. */
  cart_already_paid: "cart_already_paid",
  /** The cart is already completed (an order was placed). */
  cart_already_completed: "cart_already_completed",
  /** No such cart (or not the shopper's). */
  cart_not_found: "cart_not_found",
  /** A saved card pays only for its own customer's cart, and this cart is not theirs. */
  cart_not_yours: "cart_not_yours",

  // ---- saved cards ----
  /** Paying with (or subscribing with) a saved card needs a logged-in customer. */
  saved_card_login_required: "saved_card_login_required",
  /** This store (or this payment provider) takes no saved cards. */
  saved_cards_not_offered: "saved_cards_not_offered",
  /** The saved card is not an active card of the logged-in customer. */
  saved_card_not_yours: "saved_card_not_yours",
  /** The saved card can no longer be charged (deleted, or its token does not open). */
  saved_card_unavailable: "saved_card_unavailable",
  /** The service refused the saved card's charge before making it (not a card decline). */
  saved_card_refused: "saved_card_refused",
  /** The saved card was not charged (not yet, or the service did not confirm the payment): pay again. */
  saved_card_not_charged: "saved_card_not_charged",
  /** The saved card's charge for this checkout was refunded (the cart had moved on): pay again. */
  saved_card_charge_refunded: "saved_card_charge_refunded",
  /** The cart changed after the saved card was chosen or charged: choose a payment again. */
  saved_card_cart_changed: "saved_card_cart_changed",
  /** No such saved card of the customer's (deleting one). */
  saved_card_not_found: "saved_card_not_found",
  /** The card binding page could not be opened. */
  saved_card_binding_failed: "saved_card_binding_failed",

  // ---- subscriptions ----
  /** The subscription checkout is no longer valid (expired, replaced, ended or damaged): start it again. */
  subscription_checkout_expired: "subscription_checkout_expired",
  /** The cart changed after the subscription checkout started (its total is not the subscription's amount): start again. */
  subscription_cart_changed: "subscription_cart_changed",
  /** The subscription belongs to another customer. */
  subscription_not_yours: "subscription_not_yours",
  /** A subscription cart is empty: add the subscription's product. */
  subscription_cart_empty: "subscription_cart_empty",
  /** A subscription cart holds exactly one item. */
  subscription_cart_multiple_items: "subscription_cart_multiple_items",
  /** The subscription plan is not offered (any more). */
  subscription_plan_not_offered: "subscription_plan_not_offered",
  /** The cart's item is not the product variant of the plan. */
  subscription_plan_variant_mismatch: "subscription_plan_variant_mismatch",
  /** No payment provider of the cart's region takes subscriptions. */
  subscription_provider_unavailable: "subscription_provider_unavailable",
  /** The plan's first charge would be 12 months or more away. */
  subscription_start_too_far: "subscription_start_too_far",
  /** No such subscription of the customer's. */
  subscription_not_found: "subscription_not_found",
  /** The subscription cannot be cancelled now (already ended, just starting, or a charge is running). */
  subscription_not_cancellable: "subscription_not_cancellable",
  /** The cancellation could not be confirmed; nothing was changed: try again. */
  subscription_cancel_failed: "subscription_cancel_failed",
} as const

export type ShopperErrorCode = (typeof SHOPPER_ERROR)[keyof typeof SHOPPER_ERROR]

/** Every code, for tests and documentation. */
export const SHOPPER_ERROR_CODES: readonly ShopperErrorCode[] = Object.freeze(Object.values(SHOPPER_ERROR))

/** A MedusaError with a shopper code: `new MedusaError(type, message, code)`, typed. */
export const shopperError = (type: string, message: string, code: ShopperErrorCode): MedusaError => new MedusaError(type, message, code)

/**
 * Gives a MedusaError (or one a workflow serialized) that has no code yet this
 * one; anything else is returned as it is.
 */
export function withShopperCode<E>(error: E, code: ShopperErrorCode): E {
  if (typeof error === "object" && error !== null && MedusaError.isMedusaError(error) && !error.code) {
    error.code = code
  }
  return error
}

/** A hosted decline code (`T0001`-`T0005`) as its shopper code; undefined for anything else. */
export function hostedDeclineCode(serviceCode: string | null | undefined): ShopperErrorCode | undefined {
  return serviceCode && /^T000[1-5]$/.test(serviceCode) ? (`card_declined_${serviceCode.toLowerCase()}` as ShopperErrorCode) : undefined
}

/** The embedded card's payment failure codes (spec 7) as shopper codes. */
const EMBEDDED_FAILURES: Readonly<Record<string, ShopperErrorCode>> = {
  CARD_DECLINED: SHOPPER_ERROR.card_declined,
  CARD_NOT_SUPPORTED: SHOPPER_ERROR.card_not_supported,
  CARD_INSUFFICIENT_FUNDS: SHOPPER_ERROR.card_insufficient_funds,
  CARD_EXPIRED: SHOPPER_ERROR.card_expired,
  CARD_INVALID_NUMBER: SHOPPER_ERROR.card_invalid_number,
  CARD_INVALID_CVV: SHOPPER_ERROR.card_invalid_cvv,
  CARD_RISK_DECLINED: SHOPPER_ERROR.card_risk_declined,
  "3DS_FAILED": SHOPPER_ERROR.three_d_secure_failed,
  "3DS_CANCELED": SHOPPER_ERROR.three_d_secure_canceled,
  "3DS_TIMEOUT": SHOPPER_ERROR.three_d_secure_timeout,
}

/** An embedded payment failure (`lastPaymentError.code`, a 402's code) as its shopper code; an unknown one is `payment_failed`. */
export function embeddedFailureCode(serviceCode: string | null | undefined): ShopperErrorCode {
  return (serviceCode && EMBEDDED_FAILURES[serviceCode]) || SHOPPER_ERROR.payment_failed
}

/** Any decline a service answered (hosted `T000x`, embedded `CARD_*`/`3DS_*`) as its shopper code. */
export function declineCode(serviceCode: string | null | undefined): ShopperErrorCode {
  return hostedDeclineCode(serviceCode) ?? (serviceCode ? EMBEDDED_FAILURES[serviceCode] : undefined) ?? SHOPPER_ERROR.card_declined
}

/** The e-invoice variants of the hosted service (and of the client's own checks) as shopper codes. */
export const INVOICE_VARIANT_CODES: Readonly<Record<string, ShopperErrorCode>> = {
  INVALID_CARRIER_ID: SHOPPER_ERROR.invoice_carrier_invalid,
  INVALID_TAX_ID_NUMBER: SHOPPER_ERROR.invoice_tax_id_invalid,
  USER_NAME_AND_EMAIL_REQUIRED: SHOPPER_ERROR.invoice_buyer_incomplete,
}

/**
 * The code of a refused request body or session data, from its zod issues: an
 * e-invoice variant a refinement named, another e-invoice field, an unknown
 * payment method, or else `payment_data_invalid`.
 */
export function codeForIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; params?: unknown }>): ShopperErrorCode {
  for (const issue of issues) {
    const variant = (issue.params as { variant?: unknown } | undefined)?.variant
    if (typeof variant === "string" && INVOICE_VARIANT_CODES[variant]) {
      return INVOICE_VARIANT_CODES[variant]
    }
  }
  if (issues.some((issue) => issue.path[0] === "invoice")) {
    return SHOPPER_ERROR.invoice_invalid
  }
  if (issues.some((issue) => issue.path[0] === "methods")) {
    return SHOPPER_ERROR.payment_method_not_offered
  }
  return SHOPPER_ERROR.payment_data_invalid
}

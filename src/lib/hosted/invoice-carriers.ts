/**
 * Shapes of the e-invoice carriers (spec 2.3), as plain checks with no
 * dependencies so that a storefront can bundle the very rules the provider
 * applies and refuse a typo before anything is sent.
 */

/** Mobile barcode (`3J0002`): `/` and 7 of 0-9, A-Z, `.`, `+`, `-` (the tax authority's alphabet). */
export const MOBILE_BARCODE = /^\/[0-9A-Z.+-]{7}$/
/** Natural-person certificate (`CQ0001`): 2 upper-case letters and 14 digits. */
export const CITIZEN_CERTIFICATE = /^[A-Z]{2}\d{14}$/

export const isMobileBarcode = (value: string): boolean => MOBILE_BARCODE.test(value)
export const isCitizenCertificate = (value: string): boolean => CITIZEN_CERTIFICATE.test(value)

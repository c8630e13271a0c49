/**
 * The SDK's version: in its paths (`/sdk/v1.4.0/...`), its banner and `TwPay(...).version`.
 * Shared by the browser code and the server (plain values only, so it type-checks in both).
 */
export const SDK_VERSION = "1.4.0"

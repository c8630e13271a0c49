import { randomInt } from "node:crypto"

/**
 * Identifier formats. The spec fixes only the prefixes (`pi_`, `re_`, `evt_`, `whsec_`) and
 * the key lengths; the random parts are the sandbox's choice: 24 alphanumerics.
 */

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

export function randomAlphanumeric(length: number): string {
  let out = ""
  for (let i = 0; i < length; i++) {
    out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]
  }
  return out
}

export const newId = {
  paymentIntent: () => `pi_${randomAlphanumeric(24)}`,
  refund: () => `re_${randomAlphanumeric(24)}`,
  webhookEndpoint: () => `we_${randomAlphanumeric(24)}`,
  event: () => `evt_${randomAlphanumeric(24)}`,
  delivery: () => `wd_${randomAlphanumeric(24)}`,
  deliveryAttempt: () => `wda_${randomAlphanumeric(24)}`,
  cardToken: () => `tok_${randomAlphanumeric(24)}`,
  challenge: () => `3ds_${randomAlphanumeric(24)}`,
  request: () => `req_${randomAlphanumeric(24)}`,
  /** `whsec_` + 48 = the spec's 54 characters. */
  webhookSecret: () => `whsec_${randomAlphanumeric(48)}`,
  clientSecret: (intentId: string) => `${intentId}_secret_${randomAlphanumeric(24)}`,
}

/** The intent id inside a client secret (`${id}_secret_${random}`), or undefined when malformed. */
export function intentIdOfClientSecret(clientSecret: string): string | undefined {
  const match = /^(pi_[0-9A-Za-z]+)_secret_[0-9A-Za-z]+$/.exec(clientSecret)
  return match?.[1]
}

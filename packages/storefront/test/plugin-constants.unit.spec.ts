import { CANCELLABLE_SUBSCRIPTION_STATUSES, LISTED_SAVED_CARD_STATUSES, SUBSCRIPTION_STATUSES as PLUGIN_SUBSCRIPTION_STATUSES } from "../../../src/shared/statuses"
import { PAYMENT_METHODS } from "../../../src/providers/hosted-checkout/options"
import { isProviderOf } from "../../../src/shared/provider-ids"
import { HOSTED_METHODS } from "../src/core/hosted-checkout.js"
import { EMBEDDED_CARD_PROVIDER_ID, HOSTED_CHECKOUT_PROVIDER_ID, isEmbeddedCardProvider, isHostedCheckoutProvider } from "../src/core/provider-ids.js"
import { SAVED_CARD_STATUSES } from "../src/core/saved-cards.js"
import { isCancellable, SUBSCRIPTION_STATUSES } from "../src/core/subscriptions.js"

/**
 * The kit keeps its own copies of what the plugin's routes answer (it is
 * published without the plugin): they must not drift from the plugin's
 * (src/shared, which the models declare their enums from).
 */
describe("the kit's copies of the plugin's constants", () => {
  it("subscription statuses, and which a cancel can still change", () => {
    expect(SUBSCRIPTION_STATUSES).toEqual(PLUGIN_SUBSCRIPTION_STATUSES)
    expect(SUBSCRIPTION_STATUSES.filter(isCancellable)).toEqual(CANCELLABLE_SUBSCRIPTION_STATUSES)
  })

  it("the saved-card statuses a list shows", () => {
    expect(SAVED_CARD_STATUSES).toEqual(LISTED_SAVED_CARD_STATUSES)
  })

  it("the methods a storefront may ask the hosted page for", () => {
    expect(HOSTED_METHODS).toEqual(PAYMENT_METHODS)
  })

  it("provider ids", () => {
    expect(isProviderOf("hosted-checkout", HOSTED_CHECKOUT_PROVIDER_ID) && isHostedCheckoutProvider(HOSTED_CHECKOUT_PROVIDER_ID)).toBe(true)
    expect(isProviderOf("embedded-card", EMBEDDED_CARD_PROVIDER_ID) && isEmbeddedCardProvider(EMBEDDED_CARD_PROVIDER_ID)).toBe(true)
    expect(isHostedCheckoutProvider(EMBEDDED_CARD_PROVIDER_ID) || isEmbeddedCardProvider(HOSTED_CHECKOUT_PROVIDER_ID)).toBe(false)
  })
})

import { authenticate, defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import { AdminTwPaymentRemittance, AdminTwPaymentsHealth } from "./admin/tw-payments/validators"
import { AdminListTwRemittances, AdminRefundTwRemittance, remittanceListConfig } from "./admin/tw-remittances/validators"
import { AdminCreateTwSubscriptionPlan, AdminUpdateTwSubscriptionPlan } from "./admin/tw-subscription-plans/validators"
import { AdminCancelTwSubscription, AdminListTwSubscriptions } from "./admin/tw-subscriptions/validators"
import { cartInvoiceFactsMiddleware } from "./cart-invoice-facts-middleware"
import { collectionInUseGuard } from "./collection-in-use-guard"
import { paymentDeliveryIntake } from "./payment-delivery-intake"
import { savedCardCompletionMiddleware } from "./saved-card-completion"
import { savedCardSessionMiddleware } from "./saved-card-session-guard"
import { validatePluginBody } from "./plugin-schema"
import { checkoutBody } from "./store/carts/[id]/tw-subscription/validators"
import { bindCardBody } from "./store/customers/me/tw-saved-cards/validators"
import { StoreCancelTwSubscription, StoreListTwSubscriptions } from "./store/customers/me/tw-subscriptions/validators"
import { StoreListTwSubscriptionPlans } from "./store/tw-subscription-plans/validators"
import { subscriptionListConfig } from "./tw-subscriptions-shared/validators"

/** A logged-in customer only: anyone else is answered 401 before validation or the handler. */
const customerOnly = authenticate("customer", ["session", "bearer"])

export default defineMiddlewares({
  routes: [
    {
      // Before core's route of the same address: this plugin's deliveries with its own delay and attempts.
      matcher: "/hooks/payment/:provider",
      method: ["POST"],
      middlewares: [paymentDeliveryIntake],
    },
    {
      // Never on a collection in use: paid, ordered or awaiting its money (collection-in-use-guard.ts); a saved card only of the logged-in customer
      // (saved-card-session-guard.ts); the cart's buyer and lines for hosted-checkout e-invoices (cart-invoice-facts-middleware.ts).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [collectionInUseGuard, savedCardSessionMiddleware, cartInvoiceFactsMiddleware],
    },
    {
      // Before core's completion: a saved card's charge, once (saved-card-completion.ts).
      matcher: "/store/carts/:id/complete",
      method: ["POST"],
      middlewares: [savedCardCompletionMiddleware],
    },
    {
      // Subscriptions belong to a customer account: only a logged-in customer, and only their own.
      matcher: "/store/customers/me/tw-subscriptions*",
      middlewares: [customerOnly],
    },
    {
      // Saved cards, likewise: the logged-in customer's own only.
      matcher: "/store/customers/me/tw-saved-cards*",
      middlewares: [customerOnly],
    },
    {
      matcher: "/store/customers/me/tw-subscriptions",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(StoreListTwSubscriptions, subscriptionListConfig)],
    },
    {
      matcher: "/store/customers/me/tw-subscriptions/:id/cancel",
      method: ["POST"],
      middlewares: [validateAndTransformBody(StoreCancelTwSubscription)],
    },
    {
      matcher: "/store/customers/me/tw-saved-cards",
      method: ["POST"],
      middlewares: [validatePluginBody(bindCardBody)],
    },
    {
      matcher: "/store/carts/:id/tw-subscription",
      method: ["POST"],
      middlewares: [customerOnly, validatePluginBody(checkoutBody)],
    },
    {
      matcher: "/store/tw-subscription-plans",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(StoreListTwSubscriptionPlans, {})],
    },
    {
      matcher: "/admin/tw-subscriptions",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminListTwSubscriptions, subscriptionListConfig)],
    },
    {
      matcher: "/admin/tw-subscriptions/:id/cancel",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCancelTwSubscription)],
    },
    {
      matcher: "/admin/product-variants/:id/tw-subscription-plans",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCreateTwSubscriptionPlan)],
    },
    {
      matcher: "/admin/tw-subscription-plans/:id",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminUpdateTwSubscriptionPlan)],
    },
    {
      matcher: "/admin/tw-payments/:payment_id/remittance",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminTwPaymentRemittance)],
    },
    {
      matcher: "/admin/tw-payments/health",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminTwPaymentsHealth, {})],
    },
    {
      matcher: "/admin/tw-remittances",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminListTwRemittances, remittanceListConfig)],
    },
    {
      matcher: "/admin/tw-remittances/:id/refund",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefundTwRemittance)],
    },
  ],
})

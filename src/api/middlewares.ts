import { authenticate, defineMiddlewares } from "@medusajs/framework/http"
import { cartInvoiceFactsMiddleware } from "./cart-invoice-facts"
import { paymentDeliveryIntake } from "./payment-delivery-intake"
import { savedCardCompletionMiddleware } from "./saved-card-completion"
import { savedCardSessionMiddleware } from "./saved-card-session"

export default defineMiddlewares({
  routes: [
    {
      // Before core's route of the same address: this plugin's deliveries with its own delay and attempts.
      matcher: "/hooks/payment/:provider",
      method: ["POST"],
      middlewares: [paymentDeliveryIntake],
    },
    {
      // A saved card only of the logged-in customer (saved-card-session.ts); the cart's buyer and lines
      // for hosted-checkout e-invoices (see cart-invoice-facts.ts).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [savedCardSessionMiddleware, cartInvoiceFactsMiddleware],
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
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
    {
      // Saved cards, likewise: the logged-in customer's own only.
      matcher: "/store/customers/me/tw-saved-cards*",
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
    {
      matcher: "/store/carts/:id/tw-subscription",
      method: ["POST"],
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
  ],
})

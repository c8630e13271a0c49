import { defineMiddlewares } from "@medusajs/framework/http"
import { cartInvoiceFactsMiddleware } from "./cart-invoice-facts"
import { paymentDeliveryIntake } from "./payment-delivery-intake"

export default defineMiddlewares({
  routes: [
    {
      // Before core's route of the same address: this plugin's deliveries with its own delay and attempts.
      matcher: "/hooks/payment/:provider",
      method: ["POST"],
      middlewares: [paymentDeliveryIntake],
    },
    {
      // The cart's buyer and lines for hosted-checkout e-invoices (see cart-invoice-facts.ts).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [cartInvoiceFactsMiddleware],
    },
  ],
})

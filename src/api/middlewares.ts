import { defineMiddlewares } from "@medusajs/framework/http"
import { cartInvoiceFactsMiddleware } from "./cart-invoice-facts"

export default defineMiddlewares({
  routes: [
    {
      // The cart's buyer and lines for hosted-checkout e-invoices (see cart-invoice-facts.ts).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [cartInvoiceFactsMiddleware],
    },
  ],
})

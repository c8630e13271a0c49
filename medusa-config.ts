import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

/** The sandbox (`npm run sandbox`, started by `npm run demo` and the tests); its default merchant. */
const sandboxUrl = process.env.TW_SANDBOX_URL || "http://127.0.0.1:4010"

/**
 * The development, demo and test store of this repository. It loads the
 * plugin's own `src/` as an app would (routes, subscribers, jobs). A merchant's
 * store registers the providers from the package instead: see the README.
 */
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000,http://localhost:8000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: {
    disable: process.env.MEDUSA_ADMIN_DISABLED === "true",
  },
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            // A store that installed the package writes "medusa-payment-tw/providers/hosted-checkout".
            resolve: "./src/providers/hosted-checkout",
            id: "hosted-checkout",
            options: {
              apiToken: process.env.TW_HOSTED_API_TOKEN || "sandbox-hosted-token-demo-shop-0001",
              merchantId: process.env.TW_MERCHANT_ID || "demo-shop",
              apiBaseUrl: process.env.TW_HOSTED_API_URL || `${sandboxUrl}/hosted-api`,
              checkoutHost: process.env.TW_CHECKOUT_HOST || sandboxUrl,
              allowedMethods: ["card", "cvs", "atm", "linePay"],
              storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
              einvoice: process.env.TW_EINVOICE === "true",
            },
          },
          {
            resolve: "./src/providers/embedded-card",
            id: "embedded-card",
            options: {
              secretKey: process.env.TW_EMBEDDED_SECRET_KEY || "sk_sandbox_demo_shop_secret_0000001",
              publishableKey: process.env.TW_EMBEDDED_PUBLISHABLE_KEY || "pk_sandbox_demo_shop_000001",
              // Printed once by the webhook registration (the demo and the tests register one at start).
              webhookSecrets: (process.env.TW_EMBEDDED_WEBHOOK_SECRETS || "").split(",").filter(Boolean),
              apiBaseUrl: process.env.TW_EMBEDDED_API_URL || sandboxUrl,
              sdkUrl: process.env.TW_EMBEDDED_SDK_URL || `${sandboxUrl}/sdk/v1.4.0/twpay.js`,
              sdkIntegrity: process.env.TW_EMBEDDED_SDK_INTEGRITY || undefined,
              storefrontUrl: process.env.STOREFRONT_URL || "http://localhost:8000",
            },
          },
        ],
      },
    },
  ],
})

import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

/** The sandbox (`npm run sandbox`, started by `npm run demo` and the tests); its default merchant. */
const sandboxUrl = process.env.TW_SANDBOX_URL || "http://127.0.0.1:4010"

/**
 * Production profile, chosen by REDIS_URL (`npm run demo -- --profile production` and the
 * production tests set it): Redis event bus, Redis workflow engine and Redis locking, so that
 * one server process and N worker processes (MEDUSA_WORKER_MODE) share events, workflow
 * state and locks. Without REDIS_URL the store runs in one process on the in-memory modules.
 */
const redisUrl = process.env.REDIS_URL

const WORKER_MODES = ["shared", "server", "worker"] as const
type WorkerMode = (typeof WORKER_MODES)[number]

/** `medusa start --cluster` hands each fork its mode through this variable, so it is never hard-coded. */
function workerMode(): WorkerMode | undefined {
  const mode = process.env.MEDUSA_WORKER_MODE
  if (mode === undefined || mode === "") {
    return undefined
  }
  if (!(WORKER_MODES as readonly string[]).includes(mode)) {
    throw new Error(`MEDUSA_WORKER_MODE must be one of ${WORKER_MODES.join(", ")}, not "${mode}"`)
  }
  return mode as WorkerMode
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === "") {
    return fallback
  }
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, not "${raw}"`)
  }
  return value
}

/**
 * Keys that encrypt saved cards' tokens (docs/saved-cards.md): `TW_CARD_TOKEN_KEYS` is `id:key[,id:key...]`,
 * each key 32 random bytes in base64, the first one active (a rotation puts the new key first and keeps the
 * old one until `rotate-card-token-keys` ran). The fixed key is for the demo and the tests only; a real
 * store sets its own.
 */
const DEMO_CARD_TOKEN_KEYS = "demo:jT9eH7JLRu/Q6OhgoyH4bSYxzCthtuPh6J3FWDns8gM="

function cardTokenKeys(): { tokenKeys: Record<string, string>; activeTokenKeyId: string } {
  const pairs = (process.env.TW_CARD_TOKEN_KEYS || DEMO_CARD_TOKEN_KEYS).split(",").map((pair) => pair.trim().split(":"))
  if (pairs.some((pair) => pair.length !== 2 || !pair[0] || !pair[1])) {
    // The value is never repeated: it holds keys.
    throw new Error("TW_CARD_TOKEN_KEYS must be id:key pairs separated by commas (each key 32 random bytes in base64)")
  }
  return { tokenKeys: Object.fromEntries(pairs), activeTokenKeyId: pairs[0][0] }
}

/**
 * The plugin's intake of notifications and webhooks; the tests shorten the 5 s wait (jest.config.js).
 * `TW_SERVER_DELIVERY_CONCURRENCY=0` leaves the production profile's deliveries to the worker alone.
 */
/** The reconciliation's reads per second (default 5); the money model raises it, as its sequences are short. */
const reconciliation = {
  enabled: process.env.TW_RECONCILIATION !== "off",
  ...(process.env.TW_RECONCILIATION_RATE ? { requestsPerSecond: Number(process.env.TW_RECONCILIATION_RATE) } : {}),
}

/**
 * Medusa's languages (its translation feature, MEDUSA_FF_TRANSLATION=true, which `npm run demo` sets): the
 * store's languages at GET /store/locales, whose list the official starter's language menu shows. The flag
 * alone does not load the module: defineConfig reads flags before they are set.
 */
const translation = process.env.MEDUSA_FF_TRANSLATION === "true"

const deliveries = {
  delayMs: positiveNumber("TW_DELIVERY_DELAY_MS", 5_000),
  serverConcurrency: process.env.TW_SERVER_DELIVERY_CONCURRENCY ? Number(process.env.TW_SERVER_DELIVERY_CONCURRENCY) : undefined,
}

function productionModules(url: string) {
  return [
    {
      resolve: "@medusajs/medusa/event-bus-redis",
      options: {
        redisUrl: url,
        // Events one worker process handles at once (BullMQ's default is 1). Payment webhooks,
        // order.placed and every other event share this budget.
        workerOptions: { concurrency: positiveNumber("MEDUSA_EVENT_CONCURRENCY", 4) },
        // Core's webhook route asks for 3 attempts but no backoff: without this, retries fire at once.
        jobOptions: { backoff: { type: "exponential", delay: 2_000 }, removeOnFail: { age: 7 * 24 * 3600 } },
      },
    },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: { redis: { redisUrl: url } },
    },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/locking-redis",
            id: "locking-redis",
            is_default: true,
            // Seconds a lock waiter (inventory reservation during cart completion) waits
            // before failing; the in-memory provider's fixed 5 s rolls orders back under bursts.
            options: { redisUrl: url, waitLockingTimeout: positiveNumber("MEDUSA_LOCK_WAIT_SECONDS", 30) },
          },
        ],
      },
    },
  ]
}

/**
 * The development, demo and test store of this repository. It loads the
 * plugin's own `src/` as an app would (routes, subscribers, jobs). A merchant's
 * store registers the providers from the package instead: see the README.
 */
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    workerMode: workerMode(),
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
              reconciliation,
              deliveries,
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
              reconciliation,
              deliveries,
            },
          },
        ],
      },
    },
    // Subscriptions, and the sweep's cursor and the deliveries' markers: a store that installed the package gets these modules from the plugin itself.
    { resolve: "./src/modules/tw-subscription" },
    // Its options are the payments health rules' thresholds (docs/operations.md#payments-health); tests set them in TW_HEALTH_OPTIONS (JSON).
    { resolve: "./src/modules/tw-payment-sweep", options: { health: process.env.TW_HEALTH_OPTIONS ? JSON.parse(process.env.TW_HEALTH_OPTIONS) : undefined } },
    // Saved cards: a store that installed the package gets it from the plugin, with the plugin's options.
    { resolve: "./src/modules/tw-saved-card", options: cardTokenKeys() },
    ...(redisUrl ? productionModules(redisUrl) : []),
    ...(translation ? [{ resolve: "@medusajs/medusa/translation" }] : []),
  ],
})

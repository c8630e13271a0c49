#!/usr/bin/env node
import { parseArgs } from "node:util"
import { EmbeddedCardClient } from "../lib/embedded"
import { registerWebhookEndpoint } from "./register-webhook-endpoint"

const USAGE = `Registers the store's webhook endpoint with the embedded-card API and prints its signing secret,
which the service shows only once.

  medusa-payment-tw-register-webhook --url https://store.example/hooks/payment/embedded-card_<id>
      [--api-base <url>]   API base URL without /v1 (env TW_EMBEDDED_API_URL)
      [--rotate]           rotate the signing secret of the endpoint already registered for --url
  The secret key is read from the environment (TW_EMBEDDED_SECRET_KEY), never from the command line.

Put the printed secret in the provider's \`webhookSecrets\` option. After --rotate, list the new and the
old secret for 24 hours: deliveries carry signatures of both until then.`

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, "api-base": { type: "string" }, rotate: { type: "boolean" }, help: { type: "boolean" } },
  })
  const secretKey = process.env.TW_EMBEDDED_SECRET_KEY
  const baseUrl = values["api-base"] ?? process.env.TW_EMBEDDED_API_URL
  if (values.help || !values.url || !secretKey || !baseUrl) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 2)
  }
  const client = new EmbeddedCardClient({ secretKey, baseUrl })
  try {
    const result = await registerWebhookEndpoint(client, values.url, { rotate: values.rotate })
    console.log(`Webhook endpoint ${result.endpointId} (${result.action}) for ${values.url}`)
    console.log(`Signing secret (shown once, store it now): ${result.secret}`)
    if (result.previousSecretExpiresAt) {
      console.log(`The previous secret stays valid until ${new Date(result.previousSecretExpiresAt * 1000).toISOString()}.`)
    }
  } finally {
    await client.close()
  }
}

main().catch((error: Error) => {
  console.error(`register-webhook: ${error.message}`)
  process.exit(1)
})

import type { EmbeddedCardClient } from "../lib/embedded"

export interface RegisteredEndpoint {
  endpointId: string
  action: "created" | "rotated" | "replaced"
  /** The `whsec_` signing secret: the only time it can be read. */
  secret: string
  previousSecretExpiresAt?: number
}

/**
 * Makes sure exactly one endpoint of the account delivers to `url` and returns
 * its signing secret. The service shows a secret only when it is created or
 * rotated, so an existing endpoint for the same URL is rotated (`rotate`) or
 * replaced by a new one.
 */
export async function registerWebhookEndpoint(client: EmbeddedCardClient, url: string, { rotate = false } = {}): Promise<RegisteredEndpoint> {
  const { items } = await client.webhookEndpoints.list()
  const existing = items.filter((endpoint) => endpoint.url === url)
  if (rotate && existing[0]) {
    const rotated = await client.webhookEndpoints.rotateSecret(existing[0].id)
    return { endpointId: rotated.id, action: "rotated", secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt }
  }
  for (const endpoint of existing) {
    await client.webhookEndpoints.del(endpoint.id)
  }
  const created = await client.webhookEndpoints.create({ url })
  return { endpointId: created.id, action: existing.length ? "replaced" : "created", secret: created.secret }
}

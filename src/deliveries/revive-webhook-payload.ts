import type { ProviderWebhookPayload } from "@medusajs/framework/types"

/** How the Redis event bus serialises a Buffer: `{ type: "Buffer", data }`. */
function isSerializedBuffer(value: unknown): value is { type: "Buffer"; data: number[] } {
  return typeof value === "object" && value !== null && "type" in value && value.type === "Buffer" && "data" in value && Array.isArray(value.data)
}

/** The delivery as the intake took it in: a raw body that crossed the Redis event bus is a Buffer again. */
export function revivedPayload(payload: ProviderWebhookPayload["payload"]): ProviderWebhookPayload["payload"] {
  const raw: unknown = payload.rawData
  return isSerializedBuffer(raw) ? { ...payload, rawData: Buffer.from(raw.data) } : payload
}

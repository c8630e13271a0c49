import { model } from "@medusajs/framework/utils"
import { SAVED_CARD_STATUSES } from "../../../shared/statuses"

export { SAVED_CARD_STATUSES, type SavedCardStatus } from "../../../shared/statuses"

/**
 * A customer's card bound at the service (`POST /checkout-token`). The row is
 * created before the binding page, so its id is the binding's `customId`; the
 * token arrives later, only by notification, and is kept encrypted
 * (`token-cipher.ts`): `token_ciphertext` is `<keyId>:<iv>:<tag>:<ciphertext>`
 * with the row id as additional data, so a ciphertext copied onto another row
 * does not open.
 */
const TwSavedCard = model
  .define("tw_saved_card", {
    id: model.id({ prefix: "twcard" }).primaryKey(),
    customer_id: model.text().index(),
    /** `pp_hosted-checkout_<id>`: the provider whose merchant bound the card (a token is the merchant's). */
    provider_id: model.text(),
    status: model.enum([...SAVED_CARD_STATUSES]).default("binding"),
    /** The service's `/checkout-token` id; the `token` notification names it. Null until the call answered. */
    binding_id: model.text().nullable(),
    /** The binding page's end (10 minutes from the call): no notification after it is taken. */
    binding_expires_at: model.dateTime(),
    last4: model.text().nullable(),
    card_label: model.text().nullable(),
    token_ciphertext: model.text().nullable(),
    /** Key id of `token_ciphertext`, so a rotation finds the rows still under an old key. */
    token_key_id: model.text().nullable(),
    bound_at: model.dateTime().nullable(),
    failure_reason: model.text().nullable(),
  })
  .indexes([
    { on: ["binding_id"], unique: true, where: "binding_id IS NOT NULL AND deleted_at IS NULL" },
    { on: ["token_key_id"], where: "token_key_id IS NOT NULL AND deleted_at IS NULL" },
  ])
export default TwSavedCard

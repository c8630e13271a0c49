import { model } from "@medusajs/framework/utils"

/**
 * A stored marker of the delivery pipeline (`src/deliveries/delivery-claims.ts`),
 * one row per key until it expires: a delivery done (48 hours) or a scope
 * read within the delivery delay. In the store's database, so it is shared by
 * every process and survives restarts; an expired row counts as absent and is
 * removed by a later write (`TwPaymentSweepModuleService.setMarkerOnce`).
 */
const TwDeliveryMarker = model
  .define("tw_delivery_marker", {
    /** The marker's key (`delivery-claims.ts` names it). */
    id: model.text().primaryKey(),
    expires_at: model.dateTime(),
  })
  .indexes([{ on: ["expires_at"] }])
export default TwDeliveryMarker

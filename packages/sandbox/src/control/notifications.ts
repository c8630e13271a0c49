import type { Deliveries } from "../deliveries"
import { type ControlRouter, reply } from "./routes"

/** Every notification the sandbox produced, with each delivery attempt and the receiver's answer. */
export function addNotificationRoutes(router: ControlRouter, deliveries: Deliveries): void {
  router.add("GET", "/notifications", (req) => {
    const list = deliveries.list({
      merchantId: req.query.get("merchantId") ?? undefined,
      purpose: req.query.get("purpose") ?? undefined,
      api: req.query.get("api") ?? undefined,
    })
    return reply({ notifications: list.map(({ payload: _payload, ...rest }) => rest) })
  })
}

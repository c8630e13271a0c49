import { faultInputSchema, type FaultRegistry } from "../faults"
import { ControlError, type ControlRouter, parseBody, reply } from "./routes"

/**
 * Fault injection. An API fault's `endpoint` must name a real endpoint of its API
 * (`METHOD /template`), so a typo fails here instead of silently never matching;
 * `c026` exists only on the hosted token-charge endpoints, `refundReconciliation` only on
 * the embedded `POST /v1/refunds`.
 */
export function addFaultRoutes(router: ControlRouter, faults: FaultRegistry, endpoints: Record<string, string[]>): void {
  router
    .add("GET", "/faults", () => reply({ faults: faults.list() }))
    .add("POST", "/faults", (req) => {
      const input = parseBody(faultInputSchema, req.body)
      if ("endpoint" in input && input.endpoint !== undefined) {
        const known = endpoints[input.api] ?? []
        if (!known.includes(input.endpoint)) {
          throw new ControlError(400, `unknown endpoint "${input.endpoint}"; known: ${known.join(", ")}`)
        }
      }
      if (input.kind === "c026" && input.endpoint !== undefined && !C026_ENDPOINTS.includes(input.endpoint)) {
        throw new ControlError(400, `c026 applies only to ${C026_ENDPOINTS.join(" and ")}`)
      }
      if (input.kind === "refundReconciliation" && input.endpoint !== undefined && input.endpoint !== REFUND_ENDPOINT) {
        throw new ControlError(400, `refundReconciliation applies only to ${REFUND_ENDPOINT}`)
      }
      return reply(faults.add(input), 201)
    })
    .add("DELETE", "/faults", () => {
      faults.clear()
      return reply({ faults: [] })
    })
}

const C026_ENDPOINTS = ["POST /token/transactions", "POST /token/subscriptions"]
const REFUND_ENDPOINT = "POST /v1/refunds"

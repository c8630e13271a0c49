import type { ApiCalls } from "./api-calls"
import type { SandboxClock } from "./clock"
import type { Deliveries } from "./deliveries"
import type { FaultRegistry } from "./faults"
import type { MerchantRegistry } from "./merchants"
import type { Scheduler } from "./scheduler"
import type { StateStore } from "./state"

/** The shared parts every mounted API works with. */
export interface SandboxCore {
  clock: SandboxClock
  scheduler: Scheduler
  store: StateStore
  merchants: MerchantRegistry
  faults: FaultRegistry
  deliveries: Deliveries
  apiCalls: ApiCalls
  log: (line: string) => void
}

import { MedusaService } from "@medusajs/framework/utils"
import TwSweepCursor from "./models/sweep-cursor"

/** The sweep's cursors. Only the generated data methods: the sweep itself is a workflow. */
export default class TwPaymentSweepModuleService extends MedusaService({ TwSweepCursor }) {}

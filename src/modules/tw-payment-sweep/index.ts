import { Module } from "@medusajs/framework/utils"
import TwPaymentSweepModuleService from "./service"

/** Container key of the module that keeps the reconciliation's records (the sweeps' positions, the money due for remittance) and the deliveries' markers. */
export const TW_PAYMENT_SWEEP_MODULE = "tw_payment_sweep"

export default Module(TW_PAYMENT_SWEEP_MODULE, { service: TwPaymentSweepModuleService })
export { TwPaymentSweepModuleService }

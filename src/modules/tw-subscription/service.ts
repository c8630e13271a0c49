import { MedusaService } from "@medusajs/framework/utils"
import TwSubscriptionPeriod from "./models/period"
import TwSubscriptionPlan from "./models/plan"
import TwSubscription from "./models/subscription"

/**
 * Plans, subscriptions and their periods. Only the generated data methods:
 * what a subscription does lives in the workflows, which read the service.
 */
export default class TwSubscriptionModuleService extends MedusaService({
  TwSubscriptionPlan,
  TwSubscription,
  TwSubscriptionPeriod,
}) {}

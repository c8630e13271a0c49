import type { z } from "zod"
import type { ApiResult, Requester } from "../../http"
import { checkedBody, type HostedMerchant, type MerchantOptional } from "../merchant"
import { checkoutPage, type CheckoutPage, type CheckoutPageKind } from "../pages"
import {
  type CardBindingBody,
  cardBindingCreatedSchema,
  type CardBindingCreated,
  type CheckoutBody,
  checkoutCreatedSchema,
  type CheckoutCreated,
  type CheckoutScheduleBody,
  type CheckoutSubscriptionBody,
  scheduleCreatedSchema,
  type ScheduleCreated,
} from "../schemas/checkout"

/** A created checkout plus the page to send the consumer to and its expiry. */
export type WithPage<T> = T & { page: CheckoutPage }

/**
 * The four hosted-page sessions (spec 4.1 to 4.4). Each result carries the page
 * address and expiry, counted from just before the request was sent: the
 * earliest moment the service could have started its clock.
 */
export class CheckoutsResource {
  readonly #requester: Requester
  readonly #merchant: HostedMerchant

  constructor(requester: Requester, merchant: HostedMerchant) {
    this.#requester = requester
    this.#merchant = merchant
  }

  /** Single payment (`POST /checkout`). */
  async create(body: MerchantOptional<CheckoutBody>): Promise<ApiResult<WithPage<CheckoutCreated>>> {
    const checked = checkedBody(this.#merchant, this.#merchant.schemas.checkout, body, "checkout request")
    return this.#send("/checkout", checked, checkoutCreatedSchema, "checkout")
  }

  /** Monthly recurring payment, card only (`POST /checkout-subscription`). */
  async createSubscription(body: MerchantOptional<CheckoutSubscriptionBody>): Promise<ApiResult<WithPage<CheckoutCreated>>> {
    const checked = checkedBody(this.#merchant, this.#merchant.schemas.checkoutSubscription, body, "checkout-subscription request")
    return this.#send("/checkout-subscription", checked, checkoutCreatedSchema, "subscription")
  }

  /** Scheduled recurring payment with a first date and an interval (`POST /checkout-schedule`). */
  async createSchedule(body: MerchantOptional<CheckoutScheduleBody>): Promise<ApiResult<WithPage<ScheduleCreated>>> {
    const checked = checkedBody(this.#merchant, this.#merchant.schemas.checkoutSchedule, body, "checkout-schedule request")
    return this.#send("/checkout-schedule", checked, scheduleCreatedSchema, "schedule")
  }

  /** Card binding; the token arrives only in the `token` notification (`POST /checkout-token`). */
  async createCardBinding(body: MerchantOptional<CardBindingBody>): Promise<ApiResult<WithPage<CardBindingCreated>>> {
    const checked = checkedBody(this.#merchant, this.#merchant.schemas.cardBinding, body, "checkout-token request")
    return this.#send("/checkout-token", checked, cardBindingCreatedSchema, "cardBinding")
  }

  async #send<S extends z.ZodType<{ id: string }>>(
    path: string,
    body: unknown,
    data: S,
    kind: CheckoutPageKind
  ): Promise<ApiResult<WithPage<z.output<S>>>> {
    const calledAt = this.#merchant.now()
    const created = await this.#requester.request({ method: "POST", path, body, data })
    // Added to the parsed object itself, which keeps its `lastResponse`.
    return Object.assign(created, { page: checkoutPage(this.#merchant.checkoutHost, kind, created.id, calledAt) })
  }
}

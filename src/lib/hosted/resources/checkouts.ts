import type { z } from "zod"
import { callApi, checkedBody, type HostedContext, type MerchantOptional } from "../api-call"
import { checkoutPage, type CheckoutPage, type CheckoutPageKind } from "../pages"
import type { CardBindingBody, CheckoutBody, CheckoutScheduleBody, CheckoutSubscriptionBody } from "../requests"
import {
  cardBindingCreatedSchema,
  type CardBindingCreated,
  checkoutCreatedSchema,
  type CheckoutCreated,
  scheduleCreatedSchema,
  type ScheduleCreated,
} from "../responses"

/** A created checkout plus the page to send the consumer to and its expiry. */
export type WithPage<T> = T & { page: CheckoutPage }

/**
 * The four hosted-page sessions (spec 4.1 to 4.4). Each result carries the page
 * address and expiry, counted from just before the request was sent: the
 * earliest moment the service could have started its clock.
 */
export class Checkouts {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /** Single payment (`POST /checkout`). */
  async create(body: MerchantOptional<CheckoutBody>): Promise<WithPage<CheckoutCreated>> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.checkout, body, "checkout request")
    return this.#send("/checkout", checked, checkoutCreatedSchema, "checkout")
  }

  /** Monthly recurring payment, card only (`POST /checkout-subscription`). */
  async createSubscription(body: MerchantOptional<CheckoutSubscriptionBody>): Promise<WithPage<CheckoutCreated>> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.checkoutSubscription, body, "checkout-subscription request")
    return this.#send("/checkout-subscription", checked, checkoutCreatedSchema, "subscription")
  }

  /** Scheduled recurring payment with a first date and an interval (`POST /checkout-schedule`). */
  async createSchedule(body: MerchantOptional<CheckoutScheduleBody>): Promise<WithPage<ScheduleCreated>> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.checkoutSchedule, body, "checkout-schedule request")
    return this.#send("/checkout-schedule", checked, scheduleCreatedSchema, "schedule")
  }

  /** Card binding; the token arrives only in the `token` notification (`POST /checkout-token`). */
  async createCardBinding(body: MerchantOptional<CardBindingBody>): Promise<WithPage<CardBindingCreated>> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.cardBinding, body, "checkout-token request")
    return this.#send("/checkout-token", checked, cardBindingCreatedSchema, "cardBinding")
  }

  async #send<T extends { id: string }>(
    path: string,
    body: unknown,
    data: z.ZodType<T>,
    kind: CheckoutPageKind
  ): Promise<WithPage<T>> {
    const calledAt = this.#ctx.now()
    const created = await callApi(this.#ctx, { method: "POST", template: path, path, body, data })
    return { ...created, page: checkoutPage(this.#ctx.checkoutHost, kind, created.id, calledAt) }
  }
}

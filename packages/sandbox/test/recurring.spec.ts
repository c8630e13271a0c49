import type { SandboxOptions } from "../src/index"
import { checkoutBody, type Delivery, sortedKeys, startTestSandbox, taipeiAt, type TestSandbox } from "./helpers"

/**
 * Spec 3.2, 4.2, 4.3, 4.12, 6.2, 6.4, 6.6, 6.7: recurring charges at 09:00 Taipei
 * on the sandbox clock, retries, completion, cancellation.
 */

const LATER_FAILS = "4000000000010050" // later charges: payment_refused
const RECOVERS = "4000000000020059" // a later charge fails once, its retry succeeds

const SCHEDULE_FIELDS = [
  "purpose", "id", "subscriptionId", "merchantId", "success", "amount", "currency", "period", "numberOfPeriods",
  "interval", "startedAt", "nextChargeAt", "paymentInfo", "customId", "productDetails", "message",
]

describe("recurring payments", () => {
  let sb: TestSandbox

  afterEach(async () => {
    await sb?.close()
  })

  async function start(date: string, hour: number, options: SandboxOptions = {}) {
    sb = await startTestSandbox({ now: new Date(taipeiAt(date, hour)), ...options })
    return sb
  }

  async function monthly(card = "4242424242424242", body: Record<string, unknown> = {}) {
    const created = (await sb.ok("POST", "/checkout-subscription", checkoutBody({ customId: "sub-cust", ...body }))) as {
      id: string
      transactionHid: string
    }
    const paid = await sb.payCard(`/checkout/subscription/${created.id}`, card)
    expect(paid.location).toBe("https://shop.test/ok")
    const first = (await charges())[0]
    return { ...created, subscriptionId: first.body.subscriptionId as string }
  }

  async function charges(): Promise<Delivery[]> {
    return sb.notifications({ purpose: "charge" })
  }

  it("monthly: period 1 at payment, later periods at 09:00 Taipei on the same day, completed after numberOfPeriods", async () => {
    await start("2025-01-15", 10)
    const { id, subscriptionId } = await monthly(undefined, { numberOfPeriods: 3 })
    const [first] = await charges()
    expect(first.body).toMatchObject({
      id,
      action: "subscription",
      status: "charged",
      success: true,
      subscriptionId,
      period: 1,
      numberOfPeriods: 3,
      isRetry: false,
      scheduleStatus: "active",
      nextChargeAt: taipeiAt("2025-02-15", 9),
    })
    expect(subscriptionId).toMatch(/^S20250115[0-9A-Z]{8}$/)
    expect(await sb.ok("GET", `/subscriptions/${subscriptionId}`)).toMatchObject({ status: "active", period: 1, nextChargeAt: taipeiAt("2025-02-15", 9) })

    await sb.setClock(taipeiAt("2025-02-15", 8, 59))
    expect(await charges()).toHaveLength(1)
    await sb.advance(60)
    const second = (await charges())[1]
    expect(second.body).toMatchObject({ period: 2, status: "charged", isRetry: false, scheduleStatus: "active", nextChargeAt: taipeiAt("2025-03-15", 9) })
    expect(second.body.id).not.toBe(id)
    expect(second.body.paidAt).toBe(taipeiAt("2025-02-15", 9))
    expect(await sb.transaction(second.body.id as string)).toMatchObject({ status: "charged", numberOfPeriods: 3 })

    await sb.setClock(taipeiAt("2025-03-15", 9))
    const third = (await charges())[2]
    expect(third.body).toMatchObject({ period: 3, scheduleStatus: "completed" })
    expect(third.body).not.toHaveProperty("nextChargeAt")
    await sb.setClock(taipeiAt("2025-05-20", 9))
    expect(await charges()).toHaveLength(3)
    expect(await sb.ok("GET", `/subscriptions/${subscriptionId}`)).toMatchObject({ status: "completed", period: 3 })
  })

  it("monthly on the 31st falls on the last day of shorter months", async () => {
    await start("2025-01-31", 10)
    await monthly()
    expect((await charges())[0].body.nextChargeAt).toBe(taipeiAt("2025-02-28", 9))
    await sb.setClock(taipeiAt("2025-02-28", 9))
    expect((await charges())[1].body.nextChargeAt).toBe(taipeiAt("2025-03-31", 9))
  })

  it("without numberOfPeriods it runs until cancelled", async () => {
    await start("2025-01-15", 10)
    const { subscriptionId } = await monthly()
    await sb.setClock(taipeiAt("2025-07-15", 9))
    expect((await charges()).map((c) => c.body.period)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("active")
  })

  it("schedule starting today: first period at payment, reported by schedule_subscription; then every interval months", async () => {
    await start("2025-01-15", 10)
    const { id, subscriptionHid } = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ paymentInterval: 2, numberOfPeriods: 2, customId: "sch-1" }))) as {
      id: string
      subscriptionHid: string
    }
    expect((await sb.ok("GET", `/subscriptions/${subscriptionHid}`)).status).toBe("pending")
    expect((await sb.transaction(id)).status).toBe("initiated")
    const page = await sb.page(`/checkout/schedule/${id}`)
    expect(page.html).toContain('<h1 id="title">Scheduled recurring payment</h1>')
    expect((await sb.payCard(`/checkout/schedule/${id}`)).location).toBe("https://shop.test/ok")
    const [notice] = await sb.notifications({ purpose: "schedule_subscription" })
    for (const key of Object.keys(notice.body)) {
      expect(SCHEDULE_FIELDS).toContain(key)
    }
    expect(sortedKeys(notice.body)).toEqual(
      ["amount", "currency", "customId", "id", "interval", "merchantId", "nextChargeAt", "numberOfPeriods", "paymentInfo", "period", "productDetails", "purpose", "startedAt", "subscriptionId", "success"].sort()
    )
    expect(notice.body).toMatchObject({ id, subscriptionId: subscriptionHid, success: true, period: 1, interval: 2, numberOfPeriods: 2, paymentInfo: "4242", currency: "twd", nextChargeAt: taipeiAt("2025-03-15", 9) })
    expect(await charges()).toHaveLength(0)
    expect((await sb.transaction(id)).status).toBe("charged")
    await sb.setClock(taipeiAt("2025-03-15", 9))
    const [period2] = await charges()
    expect(period2.body).toMatchObject({ subscriptionId: subscriptionHid, period: 2, scheduleStatus: "completed" })
  })

  it("schedule with a future start only binds the card (trialing) and charges on that date at 09:00", async () => {
    await start("2025-01-15", 10)
    const { id, subscriptionHid } = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ startDate: "2025/02/01" }))) as {
      id: string
      subscriptionHid: string
    }
    expect((await sb.api("GET", `/transactions/${id}`)).json.code).toBe("V0001")
    await sb.payCard(`/checkout/schedule/${id}`)
    const [notice] = await sb.notifications({ purpose: "schedule_subscription" })
    expect(notice.body).toMatchObject({ success: true, period: 0, nextChargeAt: taipeiAt("2025-02-01", 9) })
    expect(await sb.ok("GET", `/subscriptions/${subscriptionHid}`)).toMatchObject({ status: "trialing", period: 0 })
    expect(await charges()).toHaveLength(0)
    await sb.setClock(taipeiAt("2025-02-01", 9))
    const [first] = await charges()
    expect(first.body).toMatchObject({ period: 1, status: "charged", scheduleStatus: "active", nextChargeAt: taipeiAt("2025-03-01", 9) })
    expect((await sb.ok("GET", `/subscriptions/${subscriptionHid}`)).status).toBe("active")
  })

  it("a failed scheduled checkout reports success: false and the subscription never starts", async () => {
    await start("2025-01-15", 10)
    const { id, subscriptionHid } = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ startDate: "2025/02/01" }))) as {
      id: string
      subscriptionHid: string
    }
    expect((await sb.payCard(`/checkout/schedule/${id}`, "4000000000000051")).location).toBe("https://shop.test/fail?payment_error=T0003")
    const [notice] = await sb.notifications({ purpose: "schedule_subscription" })
    expect(notice.body).toMatchObject({ id, subscriptionId: subscriptionHid, success: false, message: "payment_refused" })
    expect((await sb.ok("GET", `/subscriptions/${subscriptionHid}`)).status).toBe("error")
  })

  it("a declined first payment on the monthly page fails it and the subscription never starts", async () => {
    await start("2025-01-15", 10)
    const { id } = (await sb.ok("POST", "/checkout-subscription", checkoutBody())) as { id: string }
    expect((await sb.payCard(`/checkout/subscription/${id}`, "4000000000000069")).location).toBe("https://shop.test/fail?payment_error=T0004")
    const [notice] = await charges()
    expect(notice.body).toMatchObject({ id, status: "failed", success: false, failureCode: "duplicate_payment", period: 1, scheduleStatus: "error" })
    const subscriptionId = notice.body.subscriptionId as string
    expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("error")
    await sb.setClock(taipeiAt("2025-02-15", 9))
    expect(await charges()).toHaveLength(1)
  })

  it("a failed period with the retry feature off stops the subscription (error)", async () => {
    await start("2025-01-15", 10, { defaultMerchant: { newEventOption: true } })
    const { subscriptionId } = await monthly(LATER_FAILS)
    await sb.setClock(taipeiAt("2025-02-15", 9))
    const failed = (await charges())[1]
    expect(failed.body).toMatchObject({ period: 2, status: "failed", success: false, failureCode: "payment_refused", scheduleStatus: "error", isRetry: false })
    expect(failed.body).not.toHaveProperty("nextChargeAt")
    await sb.setClock(taipeiAt("2025-04-20", 9))
    expect(await charges()).toHaveLength(2)
    expect(await sb.notifications({ purpose: "subscription_retry" })).toHaveLength(0)
    expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("error")
  })

  it("with the retry feature: retried the next day at 09:00, 3 retries, then exhausted", async () => {
    await start("2025-01-15", 10, { defaultMerchant: { retryFeature: true, newEventOption: true } })
    const { subscriptionId } = await monthly(LATER_FAILS)
    await sb.setClock(taipeiAt("2025-02-15", 9))
    expect(await sb.ok("GET", `/subscriptions/${subscriptionId}`)).toMatchObject({ status: "retrying", nextChargeAt: taipeiAt("2025-02-16", 9) })
    let [retry] = await sb.notifications({ purpose: "subscription_retry" })
    const failedCharge = (await charges())[1]
    expect(sortedKeys(retry.body)).toEqual(["chargeHumanId", "chargeId", "failureCode", "nextRetryAt", "outcome", "period", "purpose", "retryAttemptNumber", "subscriptionId"])
    expect(retry.body).toEqual({
      purpose: "subscription_retry",
      outcome: "scheduled",
      retryAttemptNumber: 1,
      nextRetryAt: taipeiAt("2025-02-16", 9),
      failureCode: "payment_refused",
      chargeId: failedCharge.body.id,
      chargeHumanId: failedCharge.body.transactionHid,
      subscriptionId,
      period: 2,
    })
    expect(failedCharge.body).toMatchObject({ scheduleStatus: "retrying", nextChargeAt: taipeiAt("2025-02-16", 9) })

    await sb.setClock(taipeiAt("2025-02-16", 8, 59))
    expect(await charges()).toHaveLength(2)
    await sb.setClock(taipeiAt("2025-02-18", 9))
    const retries = await sb.notifications({ purpose: "subscription_retry" })
    expect(retries.map((r) => [r.body.outcome, r.body.retryAttemptNumber])).toEqual([
      ["scheduled", 1],
      ["scheduled", 2],
      ["scheduled", 3],
      ["exhausted", 3],
    ])
    retry = retries[3]
    expect(retry.body).not.toHaveProperty("nextRetryAt")
    const period2 = (await charges()).slice(1)
    expect(period2.map((c) => [c.body.period, c.body.isRetry, c.body.status])).toEqual([
      [2, false, "failed"],
      [2, true, "failed"],
      [2, true, "failed"],
      [2, true, "failed"],
    ])
    expect(period2[3].body.scheduleStatus).toBe("error")
    await sb.setClock(taipeiAt("2025-03-20", 9))
    expect(await charges()).toHaveLength(5)
    expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("error")
  })

  it("a successful retry continues the subscription on its original days", async () => {
    await start("2025-01-15", 10, { defaultMerchant: { retryFeature: true } })
    const { subscriptionId } = await monthly(RECOVERS)
    await sb.setClock(taipeiAt("2025-02-16", 9))
    const [, failed, recovered] = await charges()
    expect(failed.body).toMatchObject({ status: "failed", isRetry: false })
    expect(recovered.body).toMatchObject({ status: "charged", isRetry: true, period: 2, scheduleStatus: "active", nextChargeAt: taipeiAt("2025-03-15", 9) })
    // without the new-event option there is no subscription_retry notification
    expect(await sb.notifications({ purpose: "subscription_retry" })).toHaveLength(0)
    expect(await sb.ok("GET", `/subscriptions/${subscriptionId}`)).toMatchObject({ status: "active", period: 2 })
  })

  describe("cancellation", () => {
    const cancel = (hid: string, body: unknown = { merchantId: "demo-shop", reason: "moving away" }) =>
      sb.api("PUT", `/subscriptions/${hid}`, body)

    it("cancels an active subscription: 200 with the cancelled record, notification, no more charges", async () => {
      await start("2025-01-15", 10, { defaultMerchant: { newEventOption: true } })
      const { subscriptionId } = await monthly(undefined, { numberOfPeriods: 12 })
      await sb.advance(86400)
      const res = await cancel(subscriptionId)
      expect(res.status).toBe(200)
      const record = res.json.data!
      expect(record).toMatchObject({ id: subscriptionId, status: "cancelled", period: 1, paymentInterval: 1, reason: "moving away" })
      const cancelledAfter = Date.parse(record.cancelledAt as string) - Date.parse(taipeiAt("2025-01-16", 10))
      expect(cancelledAfter).toBeGreaterThanOrEqual(0)
      expect(cancelledAfter).toBeLessThan(60_000)
      expect(record).not.toHaveProperty("nextChargeAt")
      const [notice] = await sb.notifications({ purpose: "subscription_cancelled" })
      expect(notice.body).toEqual({
        purpose: "subscription_cancelled",
        subscriptionId,
        source: "merchant_api",
        reason: "moving away",
        cancelledAt: record.cancelledAt,
        cancelledFromStatus: "active",
        period: 1,
        numberOfPeriods: 12,
        customId: "sub-cust",
      })
      await sb.setClock(taipeiAt("2025-03-16", 9))
      expect(await charges()).toHaveLength(1)
      const again = await cancel(subscriptionId)
      expect(again.status).toBe(400)
      expect(again.json.code).toBe("V0002")
    })

    it("refuses what cannot be cancelled (V0002) and what is not found (V0001)", async () => {
      await start("2025-01-15", 10)
      const other = await sb.createMerchant({ merchantId: "sub-other" })
      const pending = (await sb.ok("POST", "/checkout-schedule", checkoutBody())) as { id: string; subscriptionHid: string }
      expect((await cancel(pending.subscriptionHid)).json.code).toBe("V0002")
      // internal id, unknown number, another domain's number
      expect((await cancel(pending.id)).json.code).toBe("V0001")
      expect((await cancel("S20250115ZZZZZZZZ")).json.code).toBe("V0001")
      const foreign = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ merchantId: "sub-other" }), other.token)) as { subscriptionHid: string }
      expect((await cancel(foreign.subscriptionHid)).json.code).toBe("V0001")
      // stopped after a failure
      const { subscriptionId } = await monthly(LATER_FAILS)
      await sb.setClock(taipeiAt("2025-02-15", 9))
      expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("error")
      expect((await cancel(subscriptionId)).json.code).toBe("V0002")
      // body rules: a body must be sent and carry merchantId
      expect((await sb.api("PUT", `/subscriptions/${pending.subscriptionHid}`, undefined, { rawBody: "" })).json.code).toBe("F0001")
      expect((await cancel(pending.subscriptionHid, {})).json.code).toBe("V0001")
    })

    it("refuses a completed subscription", async () => {
      await start("2025-01-15", 10)
      const { subscriptionId } = await monthly(undefined, { numberOfPeriods: 2 })
      await sb.setClock(taipeiAt("2025-02-15", 9))
      expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("completed")
      expect((await cancel(subscriptionId)).json.code).toBe("V0002")
    })

    it("cancels a trialing and a retrying subscription; without the option no notification", async () => {
      await start("2025-01-15", 10, { defaultMerchant: { retryFeature: true } })
      const trialing = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ startDate: "2025/03/01" }))) as { id: string; subscriptionHid: string }
      await sb.payCard(`/checkout/schedule/${trialing.id}`)
      expect((await cancel(trialing.subscriptionHid)).json.data).toMatchObject({ status: "cancelled" })
      const { subscriptionId } = await monthly(LATER_FAILS)
      await sb.setClock(taipeiAt("2025-02-15", 9))
      expect((await sb.ok("GET", `/subscriptions/${subscriptionId}`)).status).toBe("retrying")
      expect((await cancel(subscriptionId)).json.data).toMatchObject({ status: "cancelled" })
      await sb.setClock(taipeiAt("2025-03-02", 9))
      // the retry and the trial's first charge never happen
      expect((await charges()).map((c) => c.body.subscriptionId)).toEqual([subscriptionId, subscriptionId])
      expect(await sb.notifications({ purpose: "subscription_cancelled" })).toHaveLength(0)
    })

    it("an admin-console cancellation is notified with source crm", async () => {
      await start("2025-01-15", 10, { defaultMerchant: { newEventOption: true } })
      const { subscriptionId } = await monthly()
      expect((await sb.control("POST", `/subscriptions/${subscriptionId}/cancel`, { reason: "fraud" })).status).toBe(200)
      const [notice] = await sb.notifications({ purpose: "subscription_cancelled" })
      expect(notice.body).toMatchObject({ source: "crm", reason: "fraud", cancelledFromStatus: "active" })
    })
  })
})

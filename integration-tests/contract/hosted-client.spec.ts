import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { request } from "undici"
import {
  AuthenticationError,
  DeclinedError,
  InvalidRequestError,
  ServerError,
  UnknownOutcomeError,
} from "../../src/lib/http"
import { HostedCheckoutClient, parseNotification, type HostedNotification } from "../../src/lib/hosted"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"

/**
 * Contract: our hosted-checkout client against the sandbox over real HTTP, no
 * mocks. Every endpoint of spec section 4 is called through the client, and
 * every notification the sandbox sends is read with our parser.
 */
jest.setTimeout(60_000)

const SUCCESS_CARD = "4242424242424242"
const REFUSED_CARD = "4000000000000051" // payment_refused at once
const LATER_REFUSED_CARD = "4000000000010050" // binds, later charges refused

let sandbox: SandboxHandle
let receiver: Server
const notifications: HostedNotification[] = []
let client: HostedCheckoutClient
/** A card token bound in an earlier test. */
let goodToken: string

const product = (amount: number) => [{ productionCode: "TEA-1", description: "Oolong tea", quantity: 1, unit: "box", unitPrice: amount }]

async function control(method: string, path: string, body?: unknown) {
  const res = await request(`${sandbox.controlUrl}${path}`, {
    method: method as "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) {
    throw new Error(`${method} ${path}: ${res.statusCode} ${text}`)
  }
  return text ? JSON.parse(text) : undefined
}

/** The shopper submits the hosted page's form; returns the redirect target. */
async function submitPage(path: string, fields: Record<string, string>): Promise<string | undefined> {
  const page = await request(`${sandbox.checkoutHost}${path}`)
  expect(page.statusCode).toBe(200)
  expect(page.headers["content-type"]).toContain("text/html")
  await page.body.text()
  const res = await request(`${sandbox.checkoutHost}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  await res.body.text()
  return res.headers.location as string | undefined
}

const card = (number: string) => ({ method: "card", cardNumber: number, cardExpiry: "12/34", cardCvc: "123", payerEmail: "buyer@example.test" })

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const found = find()
    if (found !== undefined) {
      return found
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function paidCardCheckout(amount = 1000, orderId = `order-${Date.now()}-${Math.random()}`) {
  const created = await client.checkouts.create({
    amount,
    orderId,
    successUrl: "https://shop.test/ok",
    failureUrl: "https://shop.test/failed",
    productDetails: product(amount),
    customId: "payses_contract",
  })
  const location = await submitPage(new URL(created.page.url).pathname, card(SUCCESS_CARD))
  expect(location).toBe("https://shop.test/ok")
  return created
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      notifications.push(parseNotification(Buffer.concat(chunks)))
      res.end("ok")
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  sandbox = await startSandbox({
    notifyUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    tickMs: 50,
  })
  await control("PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { newEventOption: true })
  client = new HostedCheckoutClient({
    apiToken: sandbox.defaultMerchant.token,
    merchantId: sandbox.defaultMerchant.merchantId,
    baseUrl: sandbox.hostedBaseUrl,
    checkoutHost: sandbox.checkoutHost,
    retry: { maxRetries: 2, baseDelayMs: 10 },
  })
})

afterAll(async () => {
  await client?.close()
  await sandbox?.close()
  receiver?.closeAllConnections()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe("hosted client against the sandbox", () => {
  it("POST /checkout, the page, GET /transactions/{id} by id and by P number", async () => {
    const created = await paidCardCheckout(1280)

    expect(created.id).toMatch(/^[A-Za-z0-9]{27}$/)
    expect(created.transactionHid).toMatch(/^P\d{8}[A-Za-z0-9]{8}$/)
    const byId = await client.transactions.retrieve(created.id)
    expect(byId).toMatchObject({ id: created.id, transactionHid: created.transactionHid, status: "charged", amount: 1280, customId: "payses_contract" })
    expect(byId.productDetails).toHaveLength(1)
    const byHid = await client.transactions.retrieve(created.transactionHid)
    expect(byHid.status).toBe("charged")
    expect(byHid.productDetails).toBeUndefined()

    const notice = await waitFor(() => notifications.find((n) => n.purpose === "charge" && n.id === created.id), "charge notification")
    expect(notice).toMatchObject({ status: "charged", success: true, transactionHid: created.transactionHid })
  })

  it("a declined card sends the shopper to failureUrl and records a failed transaction", async () => {
    const orderId = `declined-${Date.now()}`
    const created = await client.checkouts.create({ amount: 500, orderId, successUrl: null, failureUrl: "https://shop.test/failed", productDetails: product(500) })
    const location = await submitPage(new URL(created.page.url).pathname, card(REFUSED_CARD))
    expect(location).toMatch(/^https:\/\/shop\.test\/failed\?payment_error=T000\d$/)

    const [tx] = await client.transactions.listByOrder(orderId)
    expect(tx).toMatchObject({ id: created.id, status: "failed" })
  })

  it("cvs: code issued (charging), paid through the control API, then refunded with remittance details", async () => {
    const created = await client.checkouts.create({
      amount: 900,
      orderId: `cvs-${Date.now()}`,
      successUrl: "https://shop.test/ok",
      failureUrl: "https://shop.test/failed",
      productDetails: product(900),
      allowedPaymentMethods: ["cvs"],
    })
    await submitPage(new URL(created.page.url).pathname, { method: "cvs", cvsName: "7-ELEVEN" })
    const issued = await client.transactions.retrieve(created.id)
    expect(issued.status).toBe("charging")
    expect(issued.paymentInfo).toMatchObject({ code: expect.any(String), expiredAt: expect.any(String) })

    await control("POST", `/transactions/${created.id}/pay`)
    expect((await client.transactions.retrieve(created.id)).status).toBe("charged")

    const missing = await client.refunds.create(created.transactionHid, {}).catch((e) => e)
    expect(missing).toBeInstanceOf(InvalidRequestError)
    expect(missing.variant).toBe("REMITTANCE_INFO_REQUIRED")

    const refund = await client.refunds.create(created.transactionHid, {
      remitInfo: { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "123456789012", accountName: "Lin Mei" },
    })
    expect(refund).toEqual({ status: "refunding", refundAmount: 900 })
  })

  it("POST /refunds/{hid}: one refund per transaction", async () => {
    const created = await paidCardCheckout(1500)
    const first = await client.refunds.create(created.transactionHid, { amount: 500, reason: "damaged" })
    expect(first).toEqual({ status: "refunded", refundAmount: 500 })

    const second = await client.refunds.create(created.transactionHid, { amount: 100 }).catch((e) => e)
    expect(second).toBeInstanceOf(InvalidRequestError)
    expect(second.code).toBe("V0002")
    expect((await client.transactions.retrieve(created.id)).refundAmount).toBe(500)
  })

  it("GET /transactions pages through more than 50 transactions with the opaque marker", async () => {
    const ids = new Set<string>()
    for await (const tx of client.transactions.list()) {
      ids.add(tx.id)
    }
    const needed = 51 - ids.size
    for (let i = 0; i < needed; i++) {
      await client.checkouts.create({ amount: 10, orderId: `page-${i}`, successUrl: null, failureUrl: null, productDetails: product(10) })
    }
    const first = await client.transactions.listPage()
    expect(first.transactions).toHaveLength(50)
    expect(first.page).toEqual(expect.any(String))
    const all: string[] = []
    for await (const tx of client.transactions.list()) {
      all.push(tx.id)
    }
    expect(all.length).toBeGreaterThanOrEqual(51)
    expect(new Set(all).size).toBe(all.length)
  })

  it("subscription checkout, GET /subscriptions(/{id}), PUT cancel and its rules", async () => {
    const created = await client.checkouts.createSubscription({
      amount: 300,
      orderId: `sub-${Date.now()}`,
      successUrl: "https://shop.test/ok",
      failureUrl: "https://shop.test/failed",
      productDetails: product(300),
      numberOfPeriods: 6,
    })
    expect(await submitPage(new URL(created.page.url).pathname, card(SUCCESS_CARD))).toBe("https://shop.test/ok")
    const charge = await waitFor(
      () => notifications.find((n): n is Extract<HostedNotification, { purpose: "charge" }> => n.purpose === "charge" && n.id === created.id),
      "first period notification"
    )
    const subscriptionId = charge.subscriptionId!
    expect(subscriptionId).toMatch(/^S\d{8}[A-Za-z0-9]{8}$/)

    const listed: string[] = []
    for await (const s of client.subscriptions.list()) {
      listed.push(s.id)
    }
    expect(listed).toContain(subscriptionId)
    expect((await client.subscriptions.retrieve(subscriptionId)).status).toBe("active")

    const cancelled = await client.subscriptions.cancel(subscriptionId, { reason: "customer request" })
    expect(cancelled).toMatchObject({ id: subscriptionId, status: "cancelled" })
    const again = await client.subscriptions.cancel(subscriptionId).catch((e) => e)
    expect(again).toBeInstanceOf(InvalidRequestError)
    expect(again.code).toBe("V0002")
    await waitFor(() => notifications.find((n) => n.purpose === "subscription_cancelled" && n.subscriptionId === subscriptionId), "cancel notification")
  })

  it("POST /checkout-schedule with a future start date creates the schedule", async () => {
    const created = await client.checkouts.createSchedule({
      amount: 450,
      orderId: `sched-${Date.now()}`,
      successUrl: null,
      failureUrl: null,
      productDetails: product(450),
      startDate: formatTaipei(new Date(Date.now() + 10 * 86_400_000)),
      paymentInterval: 3,
      numberOfPeriods: 4,
    })
    expect(created.subscriptionHid).toMatch(/^S\d{8}[A-Za-z0-9]{8}$/)
    expect(created.page.url).toContain(`/checkout/schedule/${created.id}`)
  })

  it("card binding yields a token by notification; token charges and token subscriptions use it", async () => {
    const binding = await client.checkouts.createCardBinding({ successUrl: "https://shop.test/bound", failureUrl: null, customId: "cus_1" })
    expect(await submitPage(new URL(binding.page.url).pathname, card(SUCCESS_CARD))).toBe("https://shop.test/bound")
    const bound = await waitFor(() => notifications.find((n) => n.purpose === "token" && n.id === binding.id), "token notification")
    if (bound.purpose !== "token" || !bound.success) {
      throw new Error("binding failed")
    }

    goodToken = bound.token!
    const charge = await client.tokenCharges.create({ amount: 700, token: goodToken, orderId: `tok-${Date.now()}`, productDetails: product(700) })
    expect(charge.id).toMatch(/^P/)
    expect(charge.authCode).toEqual(expect.any(String))
    expect((await client.transactions.retrieve(charge.id)).status).toBe("charged")

    const sub = await client.tokenSubscriptions.create({ amount: 200, token: bound.token!, orderId: `toksub-${Date.now()}`, productDetails: product(200), numberOfPeriods: 3 })
    expect(sub.subscriptionId).toMatch(/^S/)
    expect(sub.transactionId).toEqual(expect.any(String))
  })

  it("a token whose card refuses later charges gives DeclinedError and a findable failed transaction", async () => {
    const binding = await client.checkouts.createCardBinding({ successUrl: null, failureUrl: null })
    await submitPage(new URL(binding.page.url).pathname, card(LATER_REFUSED_CARD))
    const bound = await waitFor(() => notifications.find((n) => n.purpose === "token" && n.id === binding.id), "token notification")
    const orderId = `tokfail-${Date.now()}`
    const error = await client.tokenCharges
      .create({ amount: 700, token: (bound as { token: string }).token, orderId, productDetails: product(700) })
      .catch((e) => e)
    expect(error).toBeInstanceOf(DeclinedError)
    expect(error.code).toMatch(/^T000[1-5]$/)
    const [failed] = await client.transactions.listByOrder(orderId)
    expect(failed.status).toBe("failed")
  })

  it("maps faults: 500 on a write is an unknown outcome, a read retries, C026 is not retryable", async () => {
    await control("POST", "/faults", { kind: "http500", endpoint: "POST /checkout", count: 1 })
    const write = await client.checkouts
      .create({ amount: 100, orderId: "fault-1", successUrl: null, failureUrl: null, productDetails: product(100) })
      .catch((e) => e)
    expect(write).toBeInstanceOf(UnknownOutcomeError)

    const { id } = await client.checkouts.create({ amount: 100, orderId: "fault-2", successUrl: null, failureUrl: null, productDetails: product(100) })
    await control("POST", "/faults", { kind: "http500", endpoint: "GET /transactions/{id}", count: 2 })
    expect((await client.transactions.retrieve(id)).id).toBe(id)
    await control("POST", "/faults", { kind: "http500", endpoint: "GET /transactions/{id}", count: 3 })
    expect(await client.transactions.retrieve(id).catch((e) => e)).toBeInstanceOf(ServerError)

    await control("POST", "/faults", { kind: "c026", endpoint: "POST /token/transactions", count: 1 })
    const c026 = await client.tokenCharges
      .create({ amount: 100, token: goodToken, orderId: "fault-3", productDetails: product(100) })
      .catch((e) => e)
    expect(c026).toBeInstanceOf(UnknownOutcomeError)
    expect(c026.code).toBe("C026")
    expect(c026.retryable).toBe(false)
    await control("DELETE", "/faults")
  })

  it("a wrong token is an AuthenticationError", async () => {
    const wrong = new HostedCheckoutClient({
      apiToken: "not-the-token-000000",
      merchantId: sandbox.defaultMerchant.merchantId,
      baseUrl: sandbox.hostedBaseUrl,
      checkoutHost: sandbox.checkoutHost,
    })
    const error = await wrong.transactions.retrieve("P2026010100000001").catch((e) => e)
    await wrong.close()
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.code).toBe("A0001")
    expect(error.message).not.toContain("not-the-token-000000")
  })

  it("every notification the sandbox sent parsed with our parser", () => {
    expect(new Set(notifications.map((n) => n.purpose))).toEqual(new Set(["charge", "token", "refund", "subscription_cancelled"]))
  })
})

function formatTaipei(date: Date): string {
  const taipei = new Date(date.getTime() + 8 * 3_600_000)
  return `${taipei.getUTCFullYear()}/${String(taipei.getUTCMonth() + 1).padStart(2, "0")}/${String(taipei.getUTCDate()).padStart(2, "0")}`
}

import { inspect } from "node:util"
import { MockAgent } from "undici"
import { EmbeddedCardClient, signPayload, verifySignature } from "../embedded"
import { HostedCheckoutClient, parseNotification } from "../hosted"
import type { Logger } from "../http"

/**
 * One sweep over both clients' failure paths with a logger that records every
 * line: no API token, secret key, card token, remittance account or webhook
 * secret may appear in a log line, an error (message, stack, fields) or a result.
 */
const API_TOKEN = "hosted_api_token_Zq81mXr4Tb6W"
const SECRET_KEY = "sk_" + "S3cr3tK3yAbCdEfGhIjKlMnOpQrStUv1"
const CARD_TOKEN = "card_token_P9w2Lk7Hx5Vn3Bc1"
const REMIT_ACCOUNT = "12345678901234"
const WEBHOOK_SECRET = "whsec_" + "w".repeat(24) + "9".repeat(24)
const SECRETS = [API_TOKEN, SECRET_KEY, CARD_TOKEN, REMIT_ACCOUNT, WEBHOOK_SECRET]

const HOSTED = "https://hosted.pay.test"
const EMBEDDED = "https://embed.pay.test"
const TX_HID = "P2026112200000001"

function recorder() {
  const lines: string[] = []
  const logger: Logger = {
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  }
  return { lines, logger }
}

/** Everything an error exposes to a logger or an error tracker. */
const dump = (value: unknown) =>
  [
    String(value),
    (value as Error)?.stack ?? "",
    JSON.stringify(value) ?? "",
    inspect(value, { depth: 10, showHidden: true }),
  ].join("\n")

async function caught(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === "function" ? promise() : promise)
  } catch (error) {
    return error
  }
  throw new Error("expected a failure")
}

function expectNoSecret(text: string) {
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret)
  }
}

describe("no secret reaches logs, errors or results", () => {
  it("hosted client: echoing server, time-outs, validation and parse failures", async () => {
    const agent = new MockAgent()
    agent.disableNetConnect()
    const pool = agent.get(HOSTED)
    const { lines, logger } = recorder()
    const client = new HostedCheckoutClient({
      apiToken: API_TOKEN,
      merchantId: "tea-house",
      baseUrl: HOSTED,
      checkoutHost: HOSTED,
      dispatcher: agent,
      logger,
      retry: { maxRetries: 1, baseDelayMs: 1 },
      sleep: async () => {},
    })
    const charge = {
      amount: 100,
      token: CARD_TOKEN,
      orderId: "order_1",
      productDetails: [{ productionCode: "A", description: "Tea", quantity: 1, unit: "box", unitPrice: 100 }],
    }
    // The service repeats the request's own secrets back in its messages.
    const echo = `token ${CARD_TOKEN} with Authorization: Bearer ${API_TOKEN}`
    const refundEcho = `account ${REMIT_ACCOUNT} with Authorization: Bearer ${API_TOKEN}`
    pool.intercept({ path: "/token/transactions", method: "POST" }).reply(400, { code: "T0003", data: {}, message: echo })
    pool.intercept({ path: "/token/transactions", method: "POST" }).reply(409, { code: "C026", data: {}, message: echo, retryable: false })
    pool.intercept({ path: "/token/transactions", method: "POST" }).replyWithError(Object.assign(new Error(echo), { code: "ECONNRESET" }))
    pool.intercept({ path: `/refunds/${TX_HID}`, method: "POST" }).reply(500, { code: "F0001", data: {}, message: refundEcho })
    pool.intercept({ path: "/transactions/Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Wsz", method: "GET" }).reply(401, { code: "A0001", data: {}, message: `Bearer ${API_TOKEN} rejected` })
    pool.intercept({ path: "/transactions/Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Wsz", method: "GET" }).reply(200, { code: "S0000", data: { id: API_TOKEN } })

    const refund = { amount: 100, remitInfo: { bankCode: "004", bankName: "Bank", branchCode: "0012", branchName: "Xinyi", account: REMIT_ACCOUNT, accountName: "Lin" } }
    const errors = [
      await caught(client.tokenCharges.create(charge)),
      await caught(client.tokenCharges.create(charge)),
      await caught(client.tokenCharges.create(charge)),
      await caught(client.refunds.create(TX_HID, refund)),
      await caught(client.transactions.retrieve("Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Wsz")),
      await caught(client.transactions.retrieve("Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Wsz")),
      // Local validation of a body that carries the token.
      await caught(client.tokenCharges.create({ ...charge, amount: 0 })),
      await caught(client.refunds.create(TX_HID, { ...refund, remitInfo: { ...refund.remitInfo, account: REMIT_ACCOUNT + "999" } })),
      // A notification with a card token and a malformed field.
      await caught(() => parseNotification({ purpose: "token", id: 5, success: true, token: CARD_TOKEN })),
    ]

    expect(errors).toHaveLength(9)
    expect(lines.length).toBeGreaterThan(0)
    for (const error of errors) {
      expectNoSecret(dump(error))
    }
    expectNoSecret(lines.join("\n"))
    expectNoSecret(dump(client))
    await client.close()
  })

  it("embedded client: echoing server, retries and validation", async () => {
    const agent = new MockAgent()
    agent.disableNetConnect()
    const pool = agent.get(EMBEDDED)
    const { lines, logger } = recorder()
    const client = new EmbeddedCardClient({
      secretKey: SECRET_KEY,
      baseUrl: EMBEDDED,
      dispatcher: agent,
      logger,
      retry: { maxRetries: 1, baseDelayMs: 1 },
      sleep: async () => {},
    })
    const echo = { error: { code: "AUTH_INVALID_KEY", message: `key ${SECRET_KEY} / Bearer ${SECRET_KEY}` }, requestId: "req_1" }
    pool.intercept({ path: "/v1/payment-intents", method: "POST" }).reply(401, echo, { headers: { "x-request-id": "req_1" } })
    pool.intercept({ path: "/v1/payment-intents", method: "POST" }).reply(500, { error: { code: "INTERNAL_ERROR", message: SECRET_KEY }, requestId: "req_2" }).times(2)
    pool.intercept({ path: "/v1/refunds", method: "POST" }).replyWithError(Object.assign(new Error(SECRET_KEY), { code: "ECONNRESET" })).times(2)

    const intent = { amount: 100, orderId: "order_1", returnUrl: "https://shop.test/return" }
    const errors = [
      await caught(client.paymentIntents.create(intent)),
      await caught(client.paymentIntents.create(intent)),
      await caught(client.refunds.create({ paymentIntentId: "pi_1", reason: "requested_by_customer" })),
      await caught(client.paymentIntents.create({ ...intent, amount: 200_001 })),
      await caught(() => new EmbeddedCardClient({ secretKey: "pk_" + SECRET_KEY.slice(3), baseUrl: EMBEDDED })),
    ]

    expect(errors).toHaveLength(5)
    for (const error of errors) {
      expectNoSecret(dump(error))
      expectNoSecret(dump(error).replace(/pk_/g, "sk_"))
    }
    expectNoSecret(lines.join("\n"))
    expectNoSecret(dump(client))
    await client.close()
  })

  it("webhook verification failures never carry the secret", async () => {
    const body = Buffer.from(JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded", api_version: "2026-01-01", created: 1_795_000_000, data: {} }))
    const header = signPayload(body, WEBHOOK_SECRET, { timestamp: 1_795_000_000 })
    const failures = [
      await caught(() => verifySignature(body, header, "whsec_" + "x".repeat(48), { now: 1_795_000_000 })),
      await caught(() => verifySignature(body, header, WEBHOOK_SECRET, { now: 1_795_999_999 })),
      await caught(() => verifySignature(body, `t=1795000000,v1=${WEBHOOK_SECRET}`, WEBHOOK_SECRET, { now: 1_795_000_000 })),
      await caught(() => verifySignature(body, header, WEBHOOK_SECRET.slice(6), { now: 1_795_000_000 })),
    ]
    for (const failure of failures) {
      expectNoSecret(dump(failure))
    }
  })
})

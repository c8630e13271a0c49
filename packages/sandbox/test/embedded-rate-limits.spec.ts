import { Agent, request } from "undici"
import { type EmbeddedSandbox, expectError, startEmbeddedSandbox } from "./embedded-helpers"

/**
 * Spec 8: 500/min per secret key, 30/min per IP and 60/min per publishable key (429
 * AUTH_RATE_LIMITED with Retry-After), and the firewall (100 per 5 min per IP, 600 per
 * 5 min per publishable key; 403 with a non-standard body and no Retry-After). Requests
 * come from several loopback addresses (127.0.0.x) to act as several IPs.
 */

describe("embedded rate limits and firewall", () => {
  let sb: EmbeddedSandbox
  const agents = new Map<string, Agent>()

  beforeAll(async () => {
    sb = await startEmbeddedSandbox({ specLimits: true })
  })
  afterAll(async () => {
    await Promise.all([...agents.values()].map((a) => a.close()))
    await sb.close()
  })

  /** A GET from the given loopback address; answers status, headers and body. */
  async function from(ip: string, path: string, key: string) {
    let agent = agents.get(ip)
    if (!agent) {
      agent = new Agent({ localAddress: ip })
      agents.set(ip, agent)
    }
    const res = await request(`${sb.url}${path}`, { headers: { authorization: `Bearer ${key}` }, dispatcher: agent })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, text }
  }

  async function burst(n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
    const statuses: number[] = []
    for (let i = 0; i < n; i += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, j) => send(i + j)))
      statuses.push(...batch.map((r) => r.status))
    }
    return statuses
  }

  const statusPath = async (pk: string, sk: string) => {
    const intent = (await sb.api("POST", "/v1/payment-intents", { amount: 1, orderId: "rl", returnUrl: "https://localhost/r" }, { key: sk })).json.data
    return `/v1/payment-intents/${intent.id}/status?clientSecret=${intent.clientSecret}`
  }

  it("secret key: 500 per minute, then 429 AUTH_RATE_LIMITED with Retry-After; free again after it", async () => {
    const statuses = await burst(500, () => sb.api("GET", "/v1/payment-intents?limit=1"))
    expect(statuses.every((s) => s === 200)).toBe(true)
    const limited = await sb.api("GET", "/v1/payment-intents?limit=1")
    expectError(limited, 429, "AUTH_RATE_LIMITED", null)
    const retryAfter = Number(limited.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    // another merchant's key is not affected
    const other = await sb.merchant("rl-other")
    expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: other.sk })).status).toBe(200)
    await sb.advance(retryAfter)
    expect((await sb.api("GET", "/v1/payment-intents?limit=1")).status).toBe(200)
  })

  it("publishable key: 30 per minute per IP and 60 per minute per key", async () => {
    await sb.advance(60)
    const path = await statusPath(sb.pk, sb.sk)
    const first = await burst(30, () => from("127.0.0.2", path, sb.pk))
    expect(first.every((s) => s === 200)).toBe(true)
    const perIp = await from("127.0.0.2", path, sb.pk)
    expect(perIp.status).toBe(429)
    expect(JSON.parse(perIp.text).error.code).toBe("AUTH_RATE_LIMITED")
    expect(Number(perIp.headers["retry-after"])).toBeGreaterThan(0)
    // another IP may still go: the per-key limit is 60
    const second = await burst(30, () => from("127.0.0.3", path, sb.pk))
    expect(second.every((s) => s === 200)).toBe(true)
    const perKey = await from("127.0.0.4", path, sb.pk)
    expect(perKey.status).toBe(429)
    expect(JSON.parse(perKey.text).error.code).toBe("AUTH_RATE_LIMITED")
    await sb.advance(60)
    expect((await from("127.0.0.2", path, sb.pk)).status).toBe(200)
  })

  it("firewall: the 101st publishable-key request from one IP in 5 minutes gets 403 with an HTML body, no Retry-After, no request id", async () => {
    await sb.advance(300)
    const path = await statusPath(sb.pk, sb.sk)
    // past 30 per minute these are 429s, but the firewall in front counts them all
    const statuses = await burst(100, () => from("127.0.0.5", path, sb.pk))
    expect(statuses.filter((s) => s === 200)).toHaveLength(30)
    expect(statuses.filter((s) => s === 429)).toHaveLength(70)
    const blocked = await from("127.0.0.5", path, sb.pk)
    expect(blocked.status).toBe(403)
    expect(blocked.headers["content-type"]).toContain("text/html")
    expect(blocked.text).toContain("Request blocked")
    expect(() => JSON.parse(blocked.text)).toThrow()
    expect(blocked.headers["retry-after"]).toBeUndefined()
    expect(blocked.headers["x-request-id"]).toBeUndefined()
    // secret-key traffic from the same address never meets the firewall
    expect((await from("127.0.0.5", "/v1/payment-intents?limit=1", sb.sk)).status).toBe(200)
    await sb.advance(240)
    expect((await from("127.0.0.5", path, sb.pk)).status).toBe(403)
    await sb.advance(60)
    expect((await from("127.0.0.5", path, sb.pk)).status).toBe(200)
  })

  it("firewall: 600 per 5 minutes per publishable key, across IPs", async () => {
    await sb.advance(300)
    const path = await statusPath(sb.pk, sb.sk)
    const ips = Array.from({ length: 8 }, (_, i) => `127.0.1.${i + 1}`)
    const statuses = await burst(600, (i) => from(ips[i % ips.length], path, sb.pk))
    expect(statuses.includes(403)).toBe(false)
    const blocked = await from("127.0.1.200", path, sb.pk)
    expect(blocked.status).toBe(403)
    expect(blocked.text).toContain("Request blocked")
  })

  it("limits are configurable per merchant through the control API", async () => {
    const keys = await sb.merchant("rl-small", { rateLimits: { secretPerMinute: 3, publishablePerMinutePerIp: 2, firewallPer5MinPerIp: 4 } })
    for (let i = 0; i < 3; i++) {
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: keys.sk })).status).toBe(200)
    }
    expectError(await sb.api("GET", "/v1/payment-intents", undefined, { key: keys.sk }), 429, "AUTH_RATE_LIMITED")
    const path = `/v1/payment-intents/pi_x/status?clientSecret=pi_x_secret_y`
    expect((await from("127.0.2.1", path, keys.pk)).status).toBe(404)
    expect((await from("127.0.2.1", path, keys.pk)).status).toBe(404)
    expect((await from("127.0.2.1", path, keys.pk)).status).toBe(429)
    expect((await from("127.0.2.1", path, keys.pk)).status).toBe(429)
    expect((await from("127.0.2.1", path, keys.pk)).status).toBe(403)
    expect((await sb.control("PATCH", "/merchants/rl-small/embedded", { rateLimits: { secretPerMinute: 0 } })).status).toBe(400)
  })
})

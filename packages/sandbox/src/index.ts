import type { AddressInfo } from "node:net"
import { SandboxClock } from "./clock"
import type { SandboxCore } from "./context"
import { addClockRoutes } from "./control/clock"
import { addFaultRoutes } from "./control/faults"
import { addMerchantRoutes } from "./control/merchants"
import { addNotificationRoutes } from "./control/notifications"
import { type ControlHandler, createControlMount, reply } from "./control/routes"
import { Deliveries } from "./deliveries"
import { ApiCalls } from "./api-calls"
import { FaultRegistry } from "./faults"
import { Holds } from "./holds"
import { DEFAULT_THREE_DS_PAGE_TIMEOUT_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, embeddedAddresses, mountEmbedded } from "./embedded"
import { DEFAULT_NOTIFICATION_TIMEOUT_MS, HOSTED_API_PREFIX, mountHosted } from "./hosted"
import {
  blankMerchant,
  DEFAULT_MERCHANT_ID,
  DEFAULT_MERCHANT_TOKEN,
  type Merchant,
  MerchantRegistry,
  type MerchantSettings,
} from "./merchants"
import { Router } from "./router"
import { Scheduler } from "./scheduler"
import { createSandboxServer } from "./server"
import { StateStore } from "./state"

export { DEFAULT_MERCHANT_ID, DEFAULT_MERCHANT_TOKEN, DEFAULT_NOTIFICATION_TIMEOUT_MS, DEFAULT_WEBHOOK_TIMEOUT_MS }
export { DEFAULT_PUBLISHABLE_KEY, DEFAULT_SECRET_KEY, SDK_INTEGRITY } from "./embedded"
export type { Merchant, MerchantSettings }

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** JSON file the state is saved to (debounced and at close) and restored from. */
  statePath?: string
  /** Settings of the default merchant; `merchantId` renames it (default `demo-shop`). */
  defaultMerchant?: MerchantSettings & { merchantId?: string }
  /** Where the default merchant's notifications go; none: they are recorded as undeliverable. */
  notifyUrl?: string | null
  /** Sandbox time at start (ignored when state is restored: the saved clock continues). */
  now?: Date
  /** Real milliseconds a notification attempt waits for the receiver (spec: 10 s). */
  notificationTimeoutMs?: number
  /** Real milliseconds a webhook attempt waits for the receiver (spec: 30 s, the default). */
  webhookTimeoutMs?: number
  /** Real milliseconds the 3-D Secure challenge page waits before timing out by itself (default 10 minutes). */
  threeDsPageTimeoutMs?: number
  /** Real-time ticker running due work; 0 turns it off. Default 1000 ms. */
  tickMs?: number
  log?: (line: string) => void
}

export interface SandboxHandle {
  /** e.g. `http://127.0.0.1:4010` */
  url: string
  /** The hosted API's {base_url}: `url` + `/hosted-api`. */
  hostedBaseUrl: string
  /** The hosted pages' {checkout_host}: `url`. */
  checkoutHost: string
  /** `url` + `/_sandbox`. */
  controlUrl: string
  defaultMerchant: { merchantId: string; token: string }
  notificationTimeoutMs: number
  /** The embedded-card API of the default merchant: `baseUrl` is the spec's {embed_base_url}, `sdkUrl` its {sdk_url}. */
  embedded: EmbeddedSettings
  statePath?: string
  close(): Promise<void>
}

export interface EmbeddedSettings {
  baseUrl: string
  publishableKey: string
  secretKey: string
  sdkUrl: string
  sdkFloatingUrl: string
  sdkIntegrity: string
  webhookTimeoutMs: number
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const log = options.log ?? (() => {})
  const notificationTimeoutMs = options.notificationTimeoutMs ?? DEFAULT_NOTIFICATION_TIMEOUT_MS
  const webhookTimeoutMs = options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS
  const clock = new SandboxClock()
  const store = new StateStore(options.statePath)
  const defaultMerchantId = options.defaultMerchant?.merchantId ?? DEFAULT_MERCHANT_ID
  const explicitDefaults: MerchantSettings = {
    ...withoutId(options.defaultMerchant),
    ...(options.notifyUrl !== undefined ? { notifyUrl: options.notifyUrl } : {}),
  }
  const defaultMerchant = (): Merchant => ({
    ...blankMerchant(defaultMerchantId, clock.now()),
    token: defaultMerchantId === DEFAULT_MERCHANT_ID ? DEFAULT_MERCHANT_TOKEN : `sandbox-hosted-token-${defaultMerchantId}-0001`,
    linePayActive: true,
    ...explicitDefaults,
  })
  const scheduler = new Scheduler(clock, {
    onError: (job, err) => log(`job ${job.kind} failed: ${(err as Error).stack ?? String(err)}`),
    afterRun: () => store.markDirty(),
  })
  const merchants = new MerchantRegistry(() => clock.now(), defaultMerchant)
  const faults = new FaultRegistry(() => clock.now())
  const deliveries = new Deliveries(clock, scheduler, faults)
  const apiCalls = new ApiCalls()
  for (const part of [clock, scheduler, merchants, faults, deliveries, apiCalls]) {
    store.register(part)
  }
  const core: SandboxCore = { clock, scheduler, store, merchants, faults, deliveries, apiCalls, log }
  const holds = new Holds()
  const control = new Router<ControlHandler>()
  const hosted = mountHosted(core, control, holds, { notificationTimeoutMs })
  const embedded = mountEmbedded(core, control, holds, {
    webhookTimeoutMs,
    threeDsPageTimeoutMs: options.threeDsPageTimeoutMs ?? DEFAULT_THREE_DS_PAGE_TIMEOUT_MS,
    defaultMerchantId,
  })

  const restored = store.load()
  if (!restored && options.now) {
    clock.startAt(options.now.getTime())
  }
  merchants.ensureDefault(explicitDefaults)

  addMerchantRoutes(control, merchants)
  addClockRoutes(control, clock, scheduler)
  addFaultRoutes(control, faults, { hosted: hosted.endpoints, embedded: embedded.endpoints })
  addNotificationRoutes(control, deliveries)
  control.add("GET", "/api-calls", (req) =>
    reply({ apiCalls: apiCalls.list({ api: req.query.get("api") ?? undefined, merchantId: req.query.get("merchantId") ?? undefined }) })
  )
  control.add("POST", "/reset", async () => {
      await scheduler.idle()
      store.reset()
      return reply({ reset: true, now: clock.now().toISOString() })
    })

  const server = createSandboxServer([...hosted.mounts, ...embedded.mounts, createControlMount(control, (err) => log(String(err)))], {
    afterRequest: (req, status) => {
      store.markDirty()
      log(`${req.method} ${req.fullPath} ${status}`)
    },
    onError: (err) => log(`request failed: ${(err as Error).stack ?? String(err)}`),
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  scheduler.startTicker(options.tickMs ?? 1000)
  // Work that fell due while the sandbox was down runs now.
  scheduler.kick()

  let closing: Promise<void> | undefined
  const defaultRecord = merchants.get(defaultMerchantId)!
  const embeddedSettings = (): EmbeddedSettings => {
    const keys = embedded.accounts.currentPair(defaultMerchantId)
    return { ...embeddedAddresses(url), publishableKey: keys?.publishableKey ?? "", secretKey: keys?.secretKey ?? "", webhookTimeoutMs }
  }
  const handle: SandboxHandle = {
    url,
    hostedBaseUrl: `${url}${HOSTED_API_PREFIX}`,
    checkoutHost: url,
    controlUrl: `${url}/_sandbox`,
    defaultMerchant: { merchantId: defaultRecord.merchantId, token: defaultRecord.token },
    notificationTimeoutMs,
    embedded: embeddedSettings(),
    statePath: options.statePath,
    close() {
      closing ??= (async () => {
        scheduler.close()
        holds.releaseAll()
        await deliveries.close()
        await embedded.close()
        await scheduler.idle()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        store.close()
      })()
      return closing
    },
  }
  control.add("GET", "/settings", () =>
    reply({
      ...settingsOf(handle),
      token: merchants.get(defaultMerchantId)?.token ?? handle.defaultMerchant.token,
      // The current keys: regenerated or revoked ones show here, not in the handle taken at start.
      embedded: embeddedSettings(),
    })
  )
  return handle
}

/** What the CLI prints and `GET /_sandbox/settings` returns. */
export function settingsOf(handle: SandboxHandle) {
  return {
    url: handle.url,
    hostedBaseUrl: handle.hostedBaseUrl,
    checkoutHost: handle.checkoutHost,
    controlUrl: handle.controlUrl,
    merchantId: handle.defaultMerchant.merchantId,
    token: handle.defaultMerchant.token,
    notificationTimeoutMs: handle.notificationTimeoutMs,
    statePath: handle.statePath ?? null,
    embedded: handle.embedded,
  }
}

function withoutId(settings: SandboxOptions["defaultMerchant"]): MerchantSettings {
  if (!settings) {
    return {}
  }
  const { merchantId: _merchantId, ...rest } = settings
  return rest
}

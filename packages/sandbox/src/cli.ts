#!/usr/bin/env node
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { settingsOf, startSandbox } from "./index"

/**
 * The package's bin: `npx medusa-payment-tw-sandbox --port 4010 --state .sandbox/state.json`.
 * Every flag has an environment variable (SANDBOX_PORT, ...). Prints its settings,
 * writes them as JSON with --settings-out, and saves state before exiting on
 * SIGINT or SIGTERM. Its first line is printed before anything can fail, so a
 * failure is never a bare error message; the folders of --settings-out and
 * --state are made when missing.
 */

const USAGE = `Usage: medusa-payment-tw-sandbox [options]
  --port <n>              port (SANDBOX_PORT, default 4010; 0 = any free port)
  --host <addr>           address to bind (SANDBOX_HOST, default 127.0.0.1)
  --state <file>          save and restore state in this file (SANDBOX_STATE)
  --settings-out <file>   write base URLs and credentials as JSON (SANDBOX_SETTINGS_OUT)
  --notify-url <url>      default merchant's notification address (SANDBOX_NOTIFY_URL)
  --merchant-id <id>      default merchant's domain (SANDBOX_MERCHANT_ID, default demo-shop)
  --token <token>         default merchant's hosted API token (SANDBOX_TOKEN)
  --now <iso>             sandbox time at a fresh start (SANDBOX_NOW)
  --quiet                 do not log requests (SANDBOX_QUIET=1)
  --help

A store's notification address for the hosted-checkout provider is
http://<Medusa backend>/hooks/payment/hosted-checkout_<provider id>.`

/** The first line, printed before anything can fail: which program and version is talking. */
function banner(): string {
  let version = "(unknown version)"
  try {
    // dist/cli.js and src/cli.ts both sit one folder below the package's package.json.
    version = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version
  } catch {
    // Only the banner needs it.
  }
  return `medusa-payment-tw-sandbox ${version}: a sandbox of the payment service's APIs, no real money (--help for its options)`
}

/** Writes the settings file, making its folder first (`--settings-out .sandbox/settings.json` in a fresh checkout). */
function writeSettings(path: string, settings: unknown): void {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true })
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`)
  } catch (error) {
    throw new Error(`cannot write the settings file ${path} (--settings-out): ${(error as Error).message}`)
  }
}

async function main(): Promise<void> {
  console.log(banner())
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      state: { type: "string" },
      "settings-out": { type: "string" },
      "notify-url": { type: "string" },
      "merchant-id": { type: "string" },
      token: { type: "string" },
      now: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean" },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const env = process.env
  const port = Number(values.port ?? env.SANDBOX_PORT ?? 4010)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port: ${values.port ?? env.SANDBOX_PORT}`)
  }
  const nowText = values.now ?? env.SANDBOX_NOW
  const now = nowText ? new Date(nowText) : undefined
  if (now && Number.isNaN(now.getTime())) {
    throw new Error(`invalid --now: ${nowText}`)
  }
  const quiet = values.quiet ?? env.SANDBOX_QUIET === "1"
  const merchantId = values["merchant-id"] ?? env.SANDBOX_MERCHANT_ID
  const token = values.token ?? env.SANDBOX_TOKEN
  const notifyUrl = values["notify-url"] ?? env.SANDBOX_NOTIFY_URL
  const settingsOut = values["settings-out"] ?? env.SANDBOX_SETTINGS_OUT

  const sandbox = await startSandbox({
    port,
    host: values.host ?? env.SANDBOX_HOST ?? "127.0.0.1",
    statePath: values.state ?? env.SANDBOX_STATE,
    notifyUrl: notifyUrl || undefined,
    defaultMerchant: { ...(merchantId ? { merchantId } : {}), ...(token ? { token } : {}) },
    now,
    log: quiet ? undefined : (line) => console.log(`[sandbox] ${line}`),
  })
  const settings = { ...settingsOf(sandbox), notifyUrl: notifyUrl || null, pid: process.pid }
  if (settingsOut) {
    writeSettings(settingsOut, settings)
  }
  console.log(
    [
      "Payment sandbox running",
      `  hosted API base URL : ${settings.hostedBaseUrl}`,
      `  checkout host       : ${settings.checkoutHost}`,
      `  control API         : ${settings.controlUrl}`,
      `  merchantId          : ${settings.merchantId}`,
      `  API token           : ${settings.token}`,
      `  notifications to    : ${settings.notifyUrl ?? "(none: recorded as undeliverable)"}`,
      `  embedded API base   : ${settings.embedded.baseUrl} (paths /v1/...)`,
      `  publishable key     : ${settings.embedded.publishableKey}`,
      `  secret key          : ${settings.embedded.secretKey}`,
      `  SDK (pinned)        : ${settings.embedded.sdkUrl}`,
      `  SDK integrity       : ${settings.embedded.sdkIntegrity}`,
      `  state file          : ${settings.statePath ?? "(in memory only)"}`,
    ].join("\n")
  )

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) {
      return
    }
    stopping = true
    console.log(`[sandbox] ${signal}: saving state and stopping`)
    sandbox
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error(err)
        process.exit(1)
      })
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
}

main().catch((err: unknown) => {
  const error = err as Error & { code?: string }
  // parseArgs names the unknown or malformed option; the usage says what there is.
  const hint = error.code?.startsWith("ERR_PARSE_ARGS")
    ? `\n\n${USAGE}`
    : error.code === "EADDRINUSE"
      ? " (another sandbox running? --port picks another port, 0 any free one)"
      : ""
  console.error(`[sandbox] cannot run: ${error.message}${hint}`)
  process.exit(1)
})

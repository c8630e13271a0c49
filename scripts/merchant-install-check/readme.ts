// What the merchant-install check takes from the root README, read as it is at run time: the check
// follows the README's install and sandbox sections instead of a copy of them, so a README that
// stops working for a merchant fails the check. Each reader fails with the part it could not find.

export class ReadmeError extends Error {
  override name = "ReadmeError"
}

const INSTALL_HEADING = "Install into a store"
const SANDBOX_HEADING = "Develop against the sandbox"

/** The text under `## heading`, up to the next level-2 heading. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`)
  if (start < 0) {
    throw new ReadmeError(`README.md has no "## ${heading}" section`)
  }
  const end = lines.findIndex((line, index) => index > start && /^## /.test(line))
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n")
}

interface CodeBlock {
  lang: string
  code: string
}

/** Fenced blocks, indented ones (inside list items) too, with the indentation taken off. */
function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  const fence = /^([ \t]*)```(\w*)[^\n]*\n([\s\S]*?)^\1```/gm
  for (const match of text.matchAll(fence)) {
    const indent = match[1].length
    const code = match[3]
      .split("\n")
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join("\n")
    blocks.push({ lang: match[2], code })
  }
  return blocks
}

function block(text: string, where: string, test: (block: CodeBlock) => boolean, what: string): string {
  const found = codeBlocks(text).find(test)
  if (!found) {
    throw new ReadmeError(`README.md "${where}" has no code block with ${what}`)
  }
  return found.code
}

/** A shell command from a code block: line continuations joined, leading VAR=value pairs apart. */
export interface ShellCommand {
  env: Record<string, string>
  argv: string[]
}

function shellCommand(code: string, program: string): ShellCommand {
  const line = code
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .find((l) => l.includes(program))
  if (!line) {
    throw new ReadmeError(`README.md shows no "${program}" command`)
  }
  // A `<placeholder with spaces>` stays one word.
  const words: string[] = line.replace(/\s#.*$/, "").match(/(?:<[^>]*>|[^\s<])+/g) ?? []
  const env: Record<string, string> = {}
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=")
    env[name] = value.join("=")
  }
  return { env, argv: words }
}

/** A provider of the install section's config: its module path and which option reads which env variable. */
export interface ReadmeProvider {
  resolve: string
  id: string
  /** option name -> environment variable, for options written as `process.env.NAME`. */
  envOptions: Record<string, string>
}

export interface ReadmeInstall {
  /** The `npm install ...` line. */
  installCommand: string[]
  /** The medusa-config.ts of the install section, as written. */
  config: string
  providers: ReadmeProvider[]
  /** Environment variables the plugin's own options read, by what they hold: the saved cards' token keys. */
  pluginEnv: { tokenKeys: string[] }
  /** The `npx medusa db:migrate` the section says to run. */
  migrateCommand: string[]
  /** Provider ids the section says to enable for the TWD region. */
  regionProviderIds: string[]
  /** The step before the region: the currencies a stock store has, and the one to add (lower case). */
  storeCurrencies: { stock: string[]; add: string }
  /** The section as one line (whitespace and emphasis gone), to find the admin's names of the providers in. */
  plainText: string
  /** The webhook registration command, `--url` still pointing at the README's placeholder host. */
  registerWebhook: ShellCommand
}

function providersOf(config: string): ReadmeProvider[] {
  const starts = [...config.matchAll(/resolve:\s*"(medusa-payment-tw\/providers\/[^"]+)"/g)]
  return starts.map((match, index) => {
    const body = config.slice(match.index, starts[index + 1]?.index ?? config.length)
    const id = /\bid:\s*"([^"]+)"/.exec(body)?.[1]
    if (!id) {
      throw new ReadmeError(`README.md's config gives ${match[1]} no id`)
    }
    const envOptions: Record<string, string> = {}
    for (const option of body.matchAll(/(\w+):\s*process\.env\.(\w+)/g)) {
      envOptions[option[1]] = option[2]
    }
    return { resolve: match[1], id, envOptions }
  })
}

/**
 * The plugin's options are what the config holds before its first provider (the `plugins` entry). The
 * check can fill in only variables it knows the meaning of: keys inside `tokenKeys: { ... }`.
 */
function pluginEnvOf(config: string): ReadmeInstall["pluginEnv"] {
  const start = config.search(/resolve:\s*"medusa-payment-tw\/providers\//)
  const pluginPart = start < 0 ? config : config.slice(0, start)
  const keysBlock = /tokenKeys:\s*\{([^}]*)\}/.exec(pluginPart)
  const tokenKeys = [...(keysBlock?.[1] ?? "").matchAll(/process\.env\.(\w+)/g)].map((m) => m[1])
  const others = [...pluginPart.replace(keysBlock?.[0] ?? "", "").matchAll(/process\.env\.(\w+)/g)].map((m) => m[1])
  if (others.length) {
    throw new ReadmeError(`README.md's plugin options read ${others.join(", ")}; the check knows only the saved cards' tokenKeys`)
  }
  return { tokenKeys }
}

export function readInstall(markdown: string): ReadmeInstall {
  const text = section(markdown, INSTALL_HEADING)
  const config = block(text, INSTALL_HEADING, (b) => b.lang === "ts" && b.code.includes("defineConfig("), "a medusa-config.ts (defineConfig)")
  const installLine = block(text, INSTALL_HEADING, (b) => /npm install medusa-payment-tw\b/.test(b.code), "npm install medusa-payment-tw")
  const migrate = /`(npx medusa db:migrate)`/.exec(text)?.[1]
  if (!migrate) {
    throw new ReadmeError(`README.md "${INSTALL_HEADING}" does not say to run \`npx medusa db:migrate\``)
  }
  const regionProviderIds = [...new Set([...text.matchAll(/`(pp_[\w-]+)`/g)].map((m) => m[1]).filter((id) => !id.includes("<")))]
  const registerCode = block(text, INSTALL_HEADING, (b) => b.code.includes("medusa-payment-tw-register-webhook"), "the webhook registration command")
  // "**Add TWD to the store's currencies.** A stock store has only EUR, ..."
  const currencyStep = /\*\*Add (\w+) to the store's currencies\.\*\*\s+A stock store has only ([A-Z]{3}(?:(?:,| and) [A-Z]{3})*)\b/.exec(text)
  if (!currencyStep) {
    throw new ReadmeError(`README.md "${INSTALL_HEADING}" has no "**Add TWD to the store's currencies.** A stock store has only …" step`)
  }
  const providers = providersOf(config)
  if (providers.length === 0) {
    throw new ReadmeError("README.md's config registers no medusa-payment-tw provider")
  }
  return {
    installCommand: installLine.trim().split(/\s+/),
    config,
    providers,
    pluginEnv: pluginEnvOf(config),
    migrateCommand: migrate.split(" "),
    regionProviderIds,
    storeCurrencies: { stock: currencyStep[2].split(/,| and /).map((c) => c.trim().toLowerCase()), add: currencyStep[1].toLowerCase() },
    plainText: text.replace(/\*\*|`/g, "").replace(/\s+/g, " "),
    registerWebhook: shellCommand(registerCode, "medusa-payment-tw-register-webhook"),
  }
}

export interface ReadmeSandbox {
  /** The start command as written, with the README's store address in --notify-url. */
  command: ShellCommand
  /** The sandbox address the section assumes (e.g. http://127.0.0.1:4010). */
  origin: string
  /** Addresses the section tells to put in each provider's options, in its order: hosted, embedded. */
  hosted: Record<string, string>
  embedded: Record<string, string>
}

export function readSandbox(markdown: string): ReadmeSandbox {
  const text = section(markdown, SANDBOX_HEADING)
  const code = block(text, SANDBOX_HEADING, (b) => b.code.includes("npx medusa-payment-tw-sandbox"), "npx medusa-payment-tw-sandbox")
  const origin = /listens on `?(https?:\/\/[^\s`]+)`?/.exec(text)?.[1]
  if (!origin) {
    throw new ReadmeError(`README.md "${SANDBOX_HEADING}" does not say where the sandbox listens`)
  }
  // "for hosted checkout, apiBaseUrl: ... ; for embedded card, apiBaseUrl: ..."
  const split = text.search(/for embedded card/i)
  if (split < 0) {
    throw new ReadmeError(`README.md "${SANDBOX_HEADING}" does not say how to point the embedded-card provider at the sandbox`)
  }
  const options = (part: string) => Object.fromEntries([...part.matchAll(/`(\w+):\s*"([^"]+)"`/g)].map((m) => [m[1], m[2]]))
  return {
    command: shellCommand(code, "npx medusa-payment-tw-sandbox"),
    origin: origin.replace(/[.,;]$/, ""),
    hosted: options(text.slice(0, split)),
    embedded: options(text.slice(split)),
  }
}

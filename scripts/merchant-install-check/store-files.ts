// The stock Medusa store the merchant-install check writes from scratch, outside this repository:
// what `create-medusa-app` gives a merchant (its own package.json, tsconfig.json, .env), with the
// medusa-config.ts that the README's install section shows. Nothing here reads this repository's
// medusa-config.ts.
import { copyFile, mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { CheckError } from "./processes"

/** The Medusa the plugin is built and tested with; `--medusa <version>` gives the store another one. */
export const MEDUSA_VERSION = "2.21.2"

/**
 * The store's package.json before the plugin is installed; the sandbox is a development dependency.
 * Every @medusajs package is at `medusaVersion`; @medusajs/ui, icons and the dashboard come at the
 * versions that release pins them to.
 */
export function storePackageJson(sandboxTarball: string, medusaVersion = MEDUSA_VERSION) {
  return {
    name: "merchant-store",
    version: "0.0.1",
    private: true,
    scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop", seed: "medusa exec ./src/scripts/seed.ts" },
    dependencies: {
      "@medusajs/admin-sdk": medusaVersion,
      "@medusajs/cli": medusaVersion,
      "@medusajs/framework": medusaVersion,
      "@medusajs/medusa": medusaVersion,
    },
    devDependencies: {
      // ts-node (with swc) is how the Medusa CLI loads medusa-config.ts and src/ in development.
      "@swc/core": "1.16.22",
      "@types/node": "^20.19.0",
      react: "^18.3.1",
      "react-dom": "^18.3.1",
      "ts-node": "^10.9.2",
      typescript: "^5.9.3",
      "medusa-payment-tw-sandbox": `file:${sandboxTarball}`,
    },
    engines: { node: ">=20" },
  }
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2021",
    esModuleInterop: true,
    module: "Node16",
    moduleResolution: "Node16",
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    outDir: "./.medusa/server",
    rootDir: "./",
    jsx: "react-jsx",
    resolveJsonModule: true,
    strictNullChecks: true,
  },
  "ts-node": { swc: true },
  include: ["**/*", ".medusa/types/*"],
  exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
}

/** What the README leaves out with `// projectConfig, ...`: the stock store's own settings. */
const PROJECT_CONFIG = `  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS!,
      adminCors: process.env.ADMIN_CORS!,
      authCors: process.env.AUTH_CORS!,
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },`

/**
 * The README's medusa-config.ts with the stock projectConfig where the README elides it, and this
 * store's storefront address where the README writes an example one (as a merchant puts their own).
 */
export function medusaConfig(readmeConfig: string, storefrontUrl: string): string {
  const config = readmeConfig.replace(/(\bstorefrontUrl:\s*)"[^"]*"/g, `$1${JSON.stringify(storefrontUrl)}`)
  if (/^\s*projectConfig\s*:/m.test(config)) {
    return config
  }
  const placeholder = /^[ \t]*\/\/\s*projectConfig\b.*$/m
  if (placeholder.test(config)) {
    return config.replace(placeholder, PROJECT_CONFIG)
  }
  if (!config.includes("defineConfig({")) {
    throw new CheckError("README.md's medusa-config.ts has neither a projectConfig nor a `defineConfig({` to add the store's one to")
  }
  return config.replace("defineConfig({", `defineConfig({\n${PROJECT_CONFIG}`)
}

function dotenv(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => (/[\s#'"]/.test(value) ? `${name}='${value}'` : `${name}=${value}`))
    .join("\n")
}

export async function writeStore(
  dir: string,
  { readmeConfig, sandboxTarball, storefrontUrl, medusaVersion }: { readmeConfig: string; sandboxTarball: string; storefrontUrl: string; medusaVersion: string }
) {
  await mkdir(join(dir, "src", "scripts"), { recursive: true })
  await writeFile(join(dir, "package.json"), `${JSON.stringify(storePackageJson(sandboxTarball, medusaVersion), null, 2)}\n`)
  await writeFile(join(dir, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`)
  await writeFile(join(dir, "medusa-config.ts"), medusaConfig(readmeConfig, storefrontUrl))
  await copyFile(join(__dirname, "store-seed.ts"), join(dir, "src", "scripts", "seed.ts"))
}

/** The store's .env: its database and CORS settings, and every variable the README's config reads. */
export async function writeEnv(dir: string, values: Record<string, string>) {
  await writeFile(join(dir, ".env"), `${dotenv(values)}\n`)
}

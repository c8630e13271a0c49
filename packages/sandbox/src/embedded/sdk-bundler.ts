import { existsSync } from "node:fs"
import { join } from "node:path"
import { SDK_VERSION } from "./sdk/version"

/** The browser SDK's TypeScript sources (their own tsconfig: DOM types, no Node). */
const SOURCE_DIR = join(__dirname, "sdk")
const ENTRY = join(SOURCE_DIR, "twpay.ts")

/** The bundle's file, in the same folder as its sources would be: `dist/embedded/sdk/twpay.js` once built. */
export const SDK_BUNDLE_FILE = join("sdk", "twpay.js")

/**
 * Bundles the SDK into the classic script the sandbox serves: one IIFE, no module syntax, that
 * defines `window.TwPay`. The pinned path's `integrity` is the hash of these bytes, so nothing
 * here may vary between runs or machines: no minifier choices, no source map, and esbuild works
 * from the sources' own folder, so the path comments it writes (`// twpay.ts`) are the same
 * whatever the caller's working directory. esbuild is pinned exactly in package.json because
 * its output is what gets hashed.
 */
export function bundleSdkScript(): string {
  if (!existsSync(ENTRY)) {
    throw new Error(
      `twpay.js is missing next to ${__dirname} and its source is not there to bundle: rebuild medusa-payment-tw-sandbox (npm run build)`
    )
  }
  // Required here, not imported at the top: only the workspace (which runs these sources) and the
  // package build bundle; the published package reads the prebuilt file and never loads esbuild.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require("esbuild") as typeof import("esbuild")
  const result = esbuild.buildSync({
    entryPoints: [ENTRY],
    absWorkingDir: SOURCE_DIR,
    tsconfig: join(SOURCE_DIR, "tsconfig.json"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    charset: "utf8",
    banner: { js: `/*! twpay.js ${SDK_VERSION} (payment sandbox) */` },
    sourcemap: false,
    write: false,
    logLevel: "silent",
  })
  return result.outputFiles[0].text
}

import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { bundleSdkScript, SDK_BUNDLE_FILE } from "../src/embedded/sdk-bundler"

/**
 * Part of `npm run build`, after tsc: writes the browser SDK's bundle where the compiled
 * `dist/embedded/sdk-script.js` reads it, so the published package serves it without esbuild.
 */
const target = join(__dirname, "..", "dist", "embedded", SDK_BUNDLE_FILE)
mkdirSync(dirname(target), { recursive: true })
writeFileSync(target, bundleSdkScript())
console.log(`wrote ${target}`)

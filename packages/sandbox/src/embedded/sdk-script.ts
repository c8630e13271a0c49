import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { bundleSdkScript, SDK_BUNDLE_FILE } from "./sdk-bundler"

/**
 * The bytes of `twpay.js` (its source: `./sdk/twpay.ts`), read once at start-up.
 *
 * Two ways to the same bytes, because the package runs in two ways:
 * - published: plain node runs `dist/`, whose build (scripts/build-sdk.ts) wrote the bundle
 *   next to this file; reading it keeps esbuild out of the package's run-time dependencies;
 * - workspace (tests, jest with swc, the demo under tsx): these TypeScript sources run with no
 *   build step, so no bundle exists here and the SDK is bundled now, once.
 * Both call `bundleSdkScript()` with the same pinned esbuild, so the pinned path's `integrity`
 * is the same either way (the README's copy of it is checked by a test).
 */
const prebuilt = join(__dirname, SDK_BUNDLE_FILE)

export const SDK_SCRIPT: string = existsSync(prebuilt) ? readFileSync(prebuilt, "utf8") : bundleSdkScript()

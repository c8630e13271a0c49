#!/usr/bin/env node
"use strict"
// The package's bin: a small launcher, committed as it is, so the bin exists (and npm makes it
// executable) whether or not anything was built.
// - Published: the package holds dist/, built by `prepack` before `npm pack`/`npm publish`, and no
//   src/; the launcher runs dist/cli.js. The package has no install-time script, so a store installs
//   it without approving a build.
// - In this repository's workspace nothing is built at install (a `prepare` script rebuilt dist/ on
//   every `npm install`, and the rebuilt dist/cli.js lost its executable bit): src/cli.ts is here, so
//   the launcher runs the TypeScript sources through tsx, as the demo and the tests do. `npm run
//   sandbox` then never runs a missing or stale build.
const { existsSync } = require("node:fs")
const { join } = require("node:path")

const source = join(__dirname, "..", "src", "cli.ts")
if (existsSync(source)) {
  require("tsx/cjs/api").register()
  require(source)
} else {
  require("../dist/cli.js")
}

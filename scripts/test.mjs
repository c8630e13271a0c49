#!/usr/bin/env node
// Runs the test suites one after another, each in its own jest process (jest.config.js maps a suite's
// name to its files), and prints the totals. `node scripts/test.mjs unit http` runs a subset.
// Extra arguments after `--` go to jest (e.g. a file pattern).
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

// In running order. `browser: true`: the suite starts Chromium, which the runner provides first.
const SUITES = {
  unit: {},
  sandbox: { browser: true },
  contract: {},
  modules: {},
  http: {},
  production: {},
  browser: { browser: true },
}
const ALL = Object.keys(SUITES)
const dashdash = process.argv.indexOf("--")
const args = dashdash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashdash)
const jestArgs = dashdash === -1 ? [] : process.argv.slice(dashdash + 1)
const suites = args.length ? args : ALL
for (const suite of suites) {
  if (!ALL.includes(suite)) {
    console.error(`unknown suite "${suite}"; choose from ${ALL.join(", ")}`)
    process.exit(2)
  }
}

// Chromium before any suite runs: found (CHROMIUM_PATH, then PATH), installed from Debian's package when
// running as root on Debian, or the run stops here with the one line scripts/provide-chromium.ts printed.
// Every jest process gets CHROMIUM_PATH, so each test launches the same browser.
if (suites.some((suite) => SUITES[suite].browser)) {
  const found = spawnSync(process.execPath, ["--import", "tsx", "scripts/provide-chromium.ts"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
  if (found.status !== 0) {
    process.exit(1)
  }
  process.env.CHROMIUM_PATH = found.stdout.trim()
}

const outDir = join(process.cwd(), ".tmp", "jest")
mkdirSync(outDir, { recursive: true })
const totals = { passed: 0, failed: 0, skipped: 0 }
let broken = false

for (const suite of suites) {
  const outputFile = join(outDir, `${suite}.json`)
  rmSync(outputFile, { force: true })
  console.log(`\n=== ${suite} tests ===`)
  const run = spawnSync(
    process.execPath,
    ["node_modules/jest/bin/jest.js", "--json", `--outputFile=${outputFile}`, "--forceExit", ...jestArgs],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        TEST_TYPE: suite,
        NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
        MEDUSA_DISABLE_TELEMETRY: "true",
      },
    }
  )
  let result
  try {
    result = JSON.parse(readFileSync(outputFile, "utf8"))
  } catch {
    console.error(`${suite}: jest wrote no results (exit ${run.status})`)
    broken = true
    continue
  }
  totals.passed += result.numPassedTests
  totals.failed += result.numFailedTests
  totals.skipped += result.numPendingTests + result.numTodoTests
  // A file that fails to load counts no test but fails the run.
  if (run.status !== 0 && result.numFailedTests === 0) {
    console.error(`${suite}: jest exited ${run.status} (${result.numRuntimeErrorTestSuites} suite(s) failed to run)`)
    broken = true
  }
  if (result.numTotalTests === 0 && !jestArgs.length) {
    console.error(`${suite}: no test ran`)
    broken = true
  }
}

writeFileSync(join(outDir, "summary.json"), JSON.stringify({ ...totals, broken }))
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(totals.failed || broken ? 1 : 0)

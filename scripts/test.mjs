#!/usr/bin/env node
// Runs the test suites one after another, each in its own jest process (jest.config.js maps a suite's
// name to its files), and prints the totals. `node scripts/test.mjs unit http` runs a subset.
// Extra arguments after `--` go to jest (e.g. a file pattern).
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { createInterface } from "node:readline"

// In running order. `browser: true`: the suite starts Chromium, which the runner provides first.
// `database: true`: the suite needs PostgreSQL, which the runner starts once for all of them.
const SUITES = {
  unit: {},
  sandbox: { browser: true },
  contract: {},
  modules: { database: true },
  http: { database: true },
  production: { database: true },
  cluster: { database: true },
  browser: { browser: true, database: true },
  // `optional: true`: only when named (`npm run money-model`), not in the default run.
  model: { database: true, optional: true },
}
const ALL = Object.keys(SUITES)
const dashdash = process.argv.indexOf("--")
const args = dashdash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashdash)
const jestArgs = dashdash === -1 ? [] : process.argv.slice(dashdash + 1)
// The model suite's options (`--runs N`, `--seed S`, `--path P`, `--replay-path R`, `--max-commands N`, `--profile default|production`, `--no-shrink`) reach its spec as environment variables.
const MODEL_OPTIONS = {
  "--runs": "MONEY_MODEL_RUNS",
  "--seed": "MONEY_MODEL_SEED",
  "--path": "MONEY_MODEL_PATH",
  "--replay-path": "MONEY_MODEL_REPLAY_PATH",
  "--max-commands": "MONEY_MODEL_MAX_COMMANDS",
  "--profile": "MONEY_MODEL_PROFILE",
}
for (let i = 0; i < args.length; ) {
  if (args[i] in MODEL_OPTIONS && args[i + 1] !== undefined) {
    process.env[MODEL_OPTIONS[args[i]]] = args[i + 1]
    args.splice(i, 2)
  } else if (args[i] === "--no-shrink") {
    process.env.MONEY_MODEL_SHRINK = "0"
    args.splice(i, 1)
  } else {
    i++
  }
}
const suites = args.length ? args : ALL.filter((suite) => !SUITES[suite].optional)
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

// One PostgreSQL for every database suite (unless DB_HOST/DB_PORT/DB_USERNAME name one), so the
// migrated store template that integration-tests/helpers/store-database.ts builds serves them all.
// It lives in a child process that stops it once its stdin closes, so it never outlives this runner.
let postgres
if (suites.some((suite) => SUITES[suite].database) && !(process.env.DB_HOST && process.env.DB_PORT && process.env.DB_USERNAME)) {
  postgres = spawn(process.execPath, ["--import", "tsx", "scripts/test-postgres.ts"], { stdio: ["pipe", "pipe", "inherit"] })
  const env = await new Promise((resolve) => {
    createInterface({ input: postgres.stdout }).once("line", (line) => resolve(JSON.parse(line)))
    postgres.once("exit", () => resolve(undefined))
  })
  if (!env) {
    console.error("PostgreSQL for the tests did not start")
    process.exit(1)
  }
  Object.assign(process.env, env)
}
const stopPostgres = () =>
  new Promise((resolve) => {
    if (!postgres || postgres.exitCode !== null) {
      return resolve()
    }
    postgres.once("exit", resolve)
    postgres.stdin.end()
  })

/** Runs one jest process to its end. */
const runJest = (args, env) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: "inherit", env })
    child.on("exit", (status) => resolve({ status }))
  })

const outDir = join(process.cwd(), ".tmp", "jest")
mkdirSync(outDir, { recursive: true })
const totals = { passed: 0, failed: 0, skipped: 0 }
// Named in the summary so CI's last lines say which tests failed, not only how many.
const failures = []
let broken = false
const started = Date.now()
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`

for (const suite of suites) {
  const suiteStarted = Date.now()
  // Per runner process: runs started side by side (a long model run next to a test file) keep their own results.
  const outputFile = join(outDir, `${suite}.${process.pid}.json`)
  console.log(`\n=== ${suite} tests ===`)
  const run = await runJest(["node_modules/jest/bin/jest.js", "--json", `--outputFile=${outputFile}`, "--forceExit", ...jestArgs], {
    ...process.env,
    TEST_TYPE: suite,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
    MEDUSA_DISABLE_TELEMETRY: "true",
  })
  let result
  try {
    result = JSON.parse(readFileSync(outputFile, "utf8"))
    rmSync(outputFile)
  } catch {
    console.error(`${suite}: jest wrote no results (exit ${run.status})`)
    broken = true
    continue
  }
  totals.passed += result.numPassedTests
  totals.failed += result.numFailedTests
  totals.skipped += result.numPendingTests + result.numTodoTests
  for (const file of result.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === "failed") failures.push(`${suite}: ${test.fullName}`)
    }
    if (file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")) {
      failures.push(`${suite}: ${relative(process.cwd(), file.name)} did not run`)
    }
  }
  // A file that fails to load counts no test but fails the run.
  if (run.status !== 0 && result.numFailedTests === 0) {
    console.error(`${suite}: jest exited ${run.status} (${result.numRuntimeErrorTestSuites} suite(s) failed to run)`)
    broken = true
  }
  if (result.numTotalTests === 0 && !jestArgs.length) {
    console.error(`${suite}: no test ran`)
    broken = true
  }
  console.log(`${suite} tests: ${seconds(suiteStarted)}`)
}

await stopPostgres()
writeFileSync(join(outDir, "summary.json"), JSON.stringify({ ...totals, broken, failures }))
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped in ${seconds(started)}`)
process.exit(totals.failed || broken ? 1 : 0)

#!/usr/bin/env node
// Runs the test suites one after another, each in its own jest process (jest.config.js maps a suite's
// name to its files), and prints one line per suite and the totals. `node scripts/test.mjs unit http`
// runs a subset; `--scale` the multi-process suites (`npm run test:scale`). Extra arguments after `--`
// go to jest (e.g. a file pattern).
// Quiet: jest's own output goes to .tmp/logs/<suite>/jest.out and each test file's console (a store's
// logs) to .tmp/logs/<suite>/<file>.log (integration-tests/setup/quiet-reporter.js); a failed test
// prints its name, its assertion, and the path and last lines of its logs.
import { spawn, spawnSync } from "node:child_process"
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join, relative } from "node:path"
import { createInterface } from "node:readline"
import logFiles from "../integration-tests/setup/log-files.js"

// In running order. `browser: true`: the suite starts Chromium, which the runner provides first.
// `database: true`: the suite needs PostgreSQL, which the runner starts once for all of them.
const SUITES = {
  unit: {},
  sandbox: { browser: true },
  contract: {},
  modules: { database: true },
  http: { database: true },
  // `scale: true`: the multi-process suites (Medusa processes, Redis, haproxy) together, run by
  // `npm run test:scale` (`--scale`) or when named, not by `npm test`.
  scale: { database: true, scale: true },
  browser: { browser: true, database: true },
  // `optional: true`: only when named (`npm run money-model`, or one of the scale suites alone), not in the default run.
  model: { database: true, optional: true },
  production: { database: true, optional: true },
  cluster: { database: true, optional: true },
}
const ALL = Object.keys(SUITES)
const dashdash = process.argv.indexOf("--")
const args = dashdash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashdash)
const jestArgs = dashdash === -1 ? [] : process.argv.slice(dashdash + 1)
// The model suite's options (`--runs N`, `--seed S`, `--path P`, `--replay-path R`, `--max-commands N`, `--profile default|production`, `--shards 1|2`, `--no-shrink`) reach its spec as environment variables.
const MODEL_OPTIONS = {
  "--runs": "MONEY_MODEL_RUNS",
  "--seed": "MONEY_MODEL_SEED",
  "--path": "MONEY_MODEL_PATH",
  "--replay-path": "MONEY_MODEL_REPLAY_PATH",
  "--max-commands": "MONEY_MODEL_MAX_COMMANDS",
  "--profile": "MONEY_MODEL_PROFILE",
  "--shards": "MONEY_MODEL_SHARDS",
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
const scale = args.includes("--scale")
const named = args.filter((arg) => arg !== "--scale")
const suites = named.length || scale ? [...named, ...(scale ? ALL.filter((suite) => SUITES[suite].scale && !named.includes(suite)) : [])] : ALL.filter((suite) => !SUITES[suite].optional && !SUITES[suite].scale)
// This run's summary is .tmp/jest/summary-<name>.json (`test` for npm test, `scale` for test:scale), and
// summary.json as well (the latest run's); .ci/run adds up test's and scale's.
const runName = named.length ? [...named, ...(scale ? ["scale"] : [])].join("-") : scale ? "scale" : "test"
// One seed for the model's shards, which start from it (integration-tests/model/money-model-suite.ts).
if (suites.includes("model")) {
  process.env.MONEY_MODEL_SEED ??= String(Math.floor(Math.random() * 2 ** 31))
}
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

/** Runs one jest process to its end, its output to `outFile`. */
const runJest = (args, env, outFile) =>
  new Promise((resolve) => {
    const out = openSync(outFile, "w")
    const child = spawn(process.execPath, args, { stdio: ["ignore", out, out], env })
    closeSync(out)
    child.on("exit", (status) => resolve({ status }))
  })

// eslint-disable-next-line no-control-regex
const COLOURS = /\x1b\[[0-9;]*m/g
const here = (path) => relative(process.cwd(), path)
// Stack frames of jest itself and of node say nothing about the failure.
const OWN_FRAMES = /^\s+at .*(node_modules[\\/](jest-|@jest[\\/])|node:internal|new Promise \(<anonymous>\))/
const assertionOf = (messages) =>
  messages
    .join("\n")
    .replace(COLOURS, "")
    .trim()
    .split("\n")
    .filter((line) => !OWN_FRAMES.test(line))
    .slice(0, 30)
const indent = (lines) => lines.map((line) => `    ${line}`.trimEnd()).join("\n")
/** The last `count` lines of a file, with a header naming it. */
const tailOf = (label, file, count) => {
  let lines
  try {
    lines = readFileSync(file, "utf8").replace(COLOURS, "").split("\n")
  } catch {
    return `  ${label}: ${here(file)} (not written)`
  }
  if (lines.at(-1) === "") lines.pop()
  if (!lines.length) return `  ${label}: ${here(file)} (empty)`
  const shown = lines.slice(-count)
  return `  ${label}: ${here(file)} (${shown.length < lines.length ? `last ${shown.length} of ${lines.length} lines` : `${lines.length} line${lines.length === 1 ? "" : "s"}`})\n${indent(shown)}`
}
// Enough to read the first failures in full: the first files' first tests with their assertions and
// logs, the next tests by name; the rest are counted (all are named in .tmp/jest/summary-<run>.json).
const MAX_DETAILED_FILES = 5
const MAX_DETAILED_TESTS = 3
const MAX_NAMED_TESTS = 30
/** A failed file's tests, each with its assertion, then its logs' paths and last lines. */
const printFailures = (suite, result) => {
  let files = 0
  let named = 0
  let unnamed = 0
  for (const file of result.testResults) {
    if (file.status !== "failed") continue
    const path = here(file.name)
    const failed = file.assertionResults.filter((test) => test.status === "failed")
    const detailed = files++ < MAX_DETAILED_FILES
    for (const [index, test] of failed.entries()) {
      if (named++ >= MAX_NAMED_TESTS) {
        unnamed++
        continue
      }
      const name = `✕ ${[suite, path, ...test.ancestorTitles, test.title].filter(Boolean).join(" › ")}`
      if (detailed && index < MAX_DETAILED_TESTS) {
        console.log(`\n${name}`)
        console.log(indent(assertionOf(test.failureMessages)))
      } else {
        console.log(name)
      }
    }
    if (!failed.length) {
      console.log(`\n✕ ${suite} › ${path} (failed outside its tests)`)
      if (detailed) console.log(indent(assertionOf([file.message ?? ""])))
    }
    if (!detailed) continue
    const log = logFiles.logFileOf(file.name, suite)
    console.log(tailOf("log", log, 40))
    // Store processes the file started (integration-tests/helpers/production-store.ts): <file>.<role>.log.
    const stem = basename(log).replace(/\.log$/, ".")
    let roles = []
    try {
      roles = readdirSync(logFiles.logDir(suite)).filter((name) => name !== basename(log) && name.startsWith(stem) && name.endsWith(".log")).sort()
    } catch {
      // no folder, no store logs
    }
    for (const name of roles) {
      console.log(tailOf(`store log (${name.slice(stem.length, -".log".length)})`, join(logFiles.logDir(suite), name), 20))
    }
  }
  if (unnamed) console.log(`\n… and ${unnamed} more failed ${suite} tests (named in .tmp/jest/summary-${runName}.json)`)
}
const countsOf = (result) =>
  [
    `${result.numPassedTests} passed`,
    result.numFailedTests && `${result.numFailedTests} failed`,
    result.numPendingTests + result.numTodoTests && `${result.numPendingTests + result.numTodoTests} skipped`,
  ]
    .filter(Boolean)
    .join(", ")
const suiteLine = (suite, text, since) => `${suite.padEnd(10)} ${text.padEnd(32)} ${seconds(since).padStart(6)}`

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
  // This suite's logs from this run only (a run of some files, `-- <pattern>`, rewrites only theirs).
  const logDir = join(process.cwd(), ".tmp", "logs", suite)
  if (!jestArgs.length) rmSync(logDir, { recursive: true, force: true })
  mkdirSync(logDir, { recursive: true })
  const jestOut = join(logDir, "jest.out")
  if (process.stdout.isTTY) process.stdout.write(suiteLine(suite, "running", suiteStarted))
  const run = await runJest(
    ["node_modules/jest/bin/jest.js", "--json", `--outputFile=${outputFile}`, "--forceExit", ...jestArgs],
    {
      ...process.env,
      TEST_TYPE: suite,
      TEST_LOG_DIR: logDir,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
      MEDUSA_DISABLE_TELEMETRY: "true",
    },
    jestOut
  )
  if (process.stdout.isTTY) process.stdout.write("\r\x1b[K")
  let result
  try {
    result = JSON.parse(readFileSync(outputFile, "utf8"))
    rmSync(outputFile)
  } catch {
    console.log(suiteLine(suite, `jest wrote no results (exit ${run.status})`, suiteStarted))
    console.log(tailOf("jest's output", jestOut, 40))
    broken = true
    continue
  }
  console.log(suiteLine(suite, countsOf(result), suiteStarted))
  // Where the time went: each file's seconds, slowest first, and under it its tests' (the rest of a
  // file's time is its store's boot and its hooks).
  const secondsOf = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`
  const timings = result.testResults
    .sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))
    .flatMap((file) => [
      `${secondsOf(file.endTime - file.startTime)}  ${here(file.name)}`,
      ...file.assertionResults.sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0)).map((test) => `  ${secondsOf(test.duration ?? 0)}    ${test.fullName}`),
    ])
  writeFileSync(join(logDir, "timings.txt"), `${timings.join("\n")}\n`)
  totals.passed += result.numPassedTests
  totals.failed += result.numFailedTests
  totals.skipped += result.numPendingTests + result.numTodoTests
  for (const file of result.testResults) {
    for (const test of file.assertionResults) {
      // The assertion's first lines beside the name: CI's tail then says why, not only what.
      if (test.status === "failed") failures.push(`${suite}: ${test.fullName}\n    ${test.failureMessages.join("\n").replace(COLOURS, "").split("\n").slice(0, 6).join("\n    ")}`)
    }
    if (file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")) {
      failures.push(`${suite}: ${relative(process.cwd(), file.name)} did not run`)
    }
  }
  printFailures(suite, result)
  // A file that fails to load counts no test but fails the run.
  if (run.status !== 0 && result.numFailedTests === 0) {
    console.log(`${suite}: jest exited ${run.status} (${result.numRuntimeErrorTestSuites} suite(s) failed to run)`)
    console.log(tailOf("jest's output", jestOut, 40))
    broken = true
  }
  if (result.numTotalTests === 0 && !jestArgs.length) {
    console.log(`${suite}: no test ran`)
    console.log(tailOf("jest's output", jestOut, 40))
    broken = true
  }
}

await stopPostgres()
const summary = JSON.stringify({ ...totals, broken, failures })
writeFileSync(join(outDir, "summary.json"), summary)
writeFileSync(join(outDir, `summary-${runName}.json`), summary)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped in ${seconds(started)}`)
process.exit(totals.failed || broken ? 1 : 0)

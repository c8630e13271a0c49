const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())
// Stores under test handle a delivery 0.2 s after it arrives instead of 5 s (medusa-config.ts):
// the tests wait for deliveries often, and either order against a shopper's own checkout is safe.
process.env.TW_DELIVERY_DELAY_MS ??= "200"

// TEST_TYPE picks one suite; scripts/test.mjs runs them all and adds up the totals.
// Test folders are named `test` because `medusa plugin:build` leaves that segment out of the package.
const suites = {
  unit: ["<rootDir>/src/**/test/**/*.unit.spec.ts", "<rootDir>/scripts/**/test/**/*.unit.spec.ts", "<rootDir>/packages/storefront/test/**/*.unit.spec.ts"],
  sandbox: ["<rootDir>/packages/sandbox/test/**/*.spec.ts"],
  contract: ["<rootDir>/integration-tests/contract/**/*.spec.ts"],
  modules: ["<rootDir>/src/**/test/**/*.module.spec.ts"],
  http: ["<rootDir>/integration-tests/http/**/*.spec.ts"],
  production: ["<rootDir>/integration-tests/production/**/*.spec.ts"],
  cluster: ["<rootDir>/integration-tests/cluster/**/*.spec.ts"],
  browser: ["<rootDir>/integration-tests/browser/**/*.spec.ts"],
  // The model-based money test (docs/testing.md): not in `npm test`'s default list; `npm run money-model`.
  // Its shards (integration-tests/model/money-model-suite.ts): MONEY_MODEL_SHARDS=1 runs the first alone.
  model: process.env.MONEY_MODEL_SHARDS === "1" ? ["<rootDir>/integration-tests/model/money-model-1.spec.ts"] : ["<rootDir>/integration-tests/model/money-model-*.spec.ts"],
}
// Both multi-process suites in one run: their tests wait much of their time for a lock to expire or a
// job's tick, while another file's processes work.
suites.scale = [...suites.production, ...suites.cluster]
const type = process.env.TEST_TYPE || "unit"
const needsDatabase = ["modules", "http", "production", "cluster", "scale", "browser", "model"].includes(type)

module.exports = {
  transform: {
    // The storefront kit's components (.tsx) with React's automatic JSX runtime, as its tsconfig.json says.
    "^.+\\.[jt]sx?$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, transform: { react: { runtime: "automatic" } }, target: "es2022" } }],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  // The sandbox workspace package from its sources (as tsconfig.json's paths), never a stale dist/. The
  // storefront kit is ES modules whose relative imports name the .js file tsc emits: its sources are .ts.
  moduleNameMapper: {
    "^medusa-payment-tw-sandbox$": "<rootDir>/packages/sandbox/src/index.ts",
    "^medusa-payment-tw-storefront$": "<rootDir>/packages/storefront/src/index.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
  testMatch: suites[type],
  // Under scripts/test.mjs (TEST_LOG_DIR set): no PASS/FAIL blocks and no console output on the terminal;
  // each file's console goes to .tmp/logs/<suite>/<file>.log (integration-tests/setup/log-files.js) and
  // the runner prints a line per suite, and a failed test's assertion and log tail. Run directly, jest
  // reports as usual and writes the same logs.
  reporters: [...(process.env.TEST_LOG_DIR ? [] : ["default"]), "<rootDir>/integration-tests/setup/quiet-reporter.js"],
  // Jest turns verbose on for a run of one file, which prints console calls instead of keeping them for the log.
  ...(process.env.TEST_LOG_DIR ? { verbose: false } : {}),
  setupFilesAfterEnv: ["<rootDir>/integration-tests/setup/test-log.js"],
  testTimeout: type === "model" ? 4 * 3600_000 : needsDatabase ? 180_000 : 30_000,
  // Medusa's MikroORM metadata does not survive a second test file in one process:
  // a tiny idle-memory limit recycles the worker, so each file gets a fresh one.
  ...(needsDatabase ? { workerIdleMemoryLimit: "1MB" } : {}),
  // Files at a time, each with its own database, app and sandbox. A store test spends much of its time waiting
  // on deliveries and pages: with two http files at once the two cores were half idle, with four they are busy;
  // three browser files share them as well. Production and cluster files start several Medusa processes
  // each, and wait much of the time: three at a time. The model's two shards run side by side.
  maxWorkers: Number(process.env.JEST_MAX_WORKERS || { http: 4, browser: 3, production: 1, cluster: 1, scale: 3, model: 2 }[type] || 2),
  ...(needsDatabase
    ? {
        globalSetup: "<rootDir>/integration-tests/setup/pg-global-setup.ts",
        globalTeardown: "<rootDir>/integration-tests/setup/pg-global-teardown.ts",
      }
    : {}),
}

// Where a test run's logs go, shared by scripts/test.mjs, the quiet reporter and the test setup:
// .tmp/logs/<suite>/<test file>.log holds the console output of one test file (an in-process store's
// logs among it), .tmp/logs/<suite>/<test file>.<role>.log the output of each store process it
// started, and .tmp/logs/<suite>/jest.out what jest itself printed.
const { join, relative, sep } = require("node:path")

/** The folder of a suite's logs (TEST_LOG_DIR when the runner names one). */
function logDir(suite = process.env.TEST_TYPE || "unit", root = process.cwd()) {
  return process.env.TEST_LOG_DIR || join(root, ".tmp", "logs", suite)
}

/**
 * A test file's log: its path under the repository without the suite's folder and `test` segments,
 * `/` as `.` (src/providers/hosted-checkout/test/invoice.unit.spec.ts gives
 * providers.hosted-checkout.invoice.unit.spec.ts.log; integration-tests/http/health.spec.ts gives health.spec.ts.log).
 */
function logFileOf(testPath, suite, root = process.cwd()) {
  const name = relative(root, testPath)
    .split(sep)
    .join("/")
    .replace(/^(src|integration-tests\/[^/]+)\//, "")
    .replace(/(^|\/)test\//g, "$1")
    .replace(/\//g, ".")
  return join(logDir(suite, root), `${name}.log`)
}

module.exports = { logDir, logFileOf }

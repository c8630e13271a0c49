// setupFilesAfterEnv: tells helpers that start store processes (integration-tests/helpers/production-store.ts)
// where this test file's log is, so each process's output goes next to it as <file>.<role>.log.
/* global expect */
const { logFileOf } = require("./log-files")

process.env.TEST_LOG_FILE = logFileOf(expect.getState().testPath)

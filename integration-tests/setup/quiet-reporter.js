// Jest reporter in place of the default one (jest.config.js, under scripts/test.mjs): prints nothing and
// writes each test file's console output (an in-process store's logs among it) to its log file
// (log-files.js). scripts/test.mjs prints the suite's line and, for a failed test, its name, its
// assertion, and the path and last lines of this log.
const { mkdirSync, writeFileSync } = require("node:fs")
const { dirname } = require("node:path")
const { logFileOf } = require("./log-files")

// eslint-disable-next-line no-control-regex
const COLOURS = /\x1b\[[0-9;]*m/g

class QuietReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir
  }

  onTestFileResult(test, result) {
    const file = logFileOf(result.testFilePath, undefined, this.root)
    mkdirSync(dirname(file), { recursive: true })
    // Jest fills `console` (its buffered console) when neither --verbose nor --silent is on.
    const lines = (result.console ?? []).map(({ type, message }) => {
      // winston (Medusa's logger) writes its own line end.
      const text = String(message).replace(/\n$/, "")
      return type === "log" ? text : `[${type}] ${text}`
    })
    writeFileSync(file, lines.join("\n").replace(COLOURS, "") + (lines.length ? "\n" : ""))
  }

  getLastError() {
    return undefined
  }
}

module.exports = QuietReporter

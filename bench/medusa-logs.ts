// What the Medusa processes' output says, read the way a merchant would grep it.

// eslint-disable-next-line no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/g

export const plain = (line: string) => line.replace(COLOUR, "")

/** Winston's CLI format (`error:   …`, development) or its JSON format (`{"level":"error",…}`, production). */
function level(line: string): string | undefined {
  const text = plain(line).trimStart()
  const cli = /^(error|warn|info|http|verbose|debug|silly):/.exec(text)
  if (cli) {
    return cli[1]
  }
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as { level?: unknown }
      return typeof parsed.level === "string" ? parsed.level : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

export const isErrorLine = (line: string) => level(line) === "error"

/** complete-tw-paid-cart.ts's warning for one failed completion attempt (each is an order rolled back by core). */
const FAILED_COMPLETION = /completing paid cart (\S+) failed \(attempt (\d+)\): (.*)$/

export interface LogSummary {
  errorLines: string[]
  failedCompletions: Array<{ cartId: string; attempt: number; reason: string }>
  /** Pipeline runs the subscriber gave back for a retry ("not handled yet"). */
  unhandledDeliveries: string[]
}

export function summarizeLogs(lines: string[]): LogSummary {
  const summary: LogSummary = { errorLines: [], failedCompletions: [], unhandledDeliveries: [] }
  for (const raw of lines) {
    const line = plain(raw)
    if (isErrorLine(line)) {
      summary.errorLines.push(line)
    }
    const failed = FAILED_COMPLETION.exec(line)
    if (failed) {
      summary.failedCompletions.push({ cartId: failed[1], attempt: Number(failed[2]), reason: failed[3] })
    }
    if (/delivery .* not handled yet/.test(line)) {
      summary.unhandledDeliveries.push(line)
    }
  }
  return summary
}

/** The most frequent messages among `lines` (ids and numbers masked), for a short excerpt in a report. */
export function commonMessages(lines: string[], top = 5): Array<{ count: number; example: string }> {
  const groups = new Map<string, { count: number; example: string }>()
  for (const line of lines) {
    const shape = line.replace(/\b[a-z]+_[0-9A-Z]{20,}\b/g, "<id>").replace(/\d+(\.\d+)?/g, "<n>")
    const group = groups.get(shape) ?? { count: 0, example: line }
    group.count++
    groups.set(shape, group)
  }
  return [...groups.values()].sort((a, b) => b.count - a.count).slice(0, top)
}

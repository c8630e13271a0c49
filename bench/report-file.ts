// Where a harness keeps what it printed: .tmp/bench/<name>-<time>.txt by default, or the file its
// `--out` names. Runs are not kept in the tree: the docs state the latest figures, git keeps the history.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/** The repository's scratch folder for harness outputs (ignored by git, like all of .tmp/). */
export const BENCH_OUT_DIR = resolve(__dirname, "..", ".tmp", "bench")

/** `.tmp/bench/<name>-<UTC time>.<ext>`, e.g. `.tmp/bench/chaos-default-n100-2026-11-28T10-15-00Z.txt`. */
export function defaultOutPath(name: string, ext = "txt"): string {
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, "Z").replace(/:/g, "-")
  return join(BENCH_OUT_DIR, `${name}-${stamp}.${ext}`)
}

/** The same path with another extension: `a/b.txt` → `a/b.json` (`a/b.json` → `a/b.json.json`). */
export function besides(file: string, ext: string): string {
  const other = `${file.replace(/\.[^./\\]+$/, "")}.${ext}`
  return other === file ? `${file}.${ext}` : other
}

/** A path as printed: relative to the working folder when inside it. */
export function shown(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel.startsWith("..") ? file : rel
}

/**
 * From now on, everything written to stdout and stderr also goes to `file` (its folder made, the file
 * replaced). Returns a function that stops copying and closes the file.
 */
export function keepReport(file: string): () => void {
  mkdirSync(dirname(file), { recursive: true })
  const fd = openSync(file, "w")
  const restore: Array<() => void> = []
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write
    const copying = (...args: Parameters<typeof original>): boolean => {
      const chunk = args[0]
      try {
        writeSync(fd, typeof chunk === "string" ? Buffer.from(chunk) : chunk)
      } catch {
        // The report is a copy: a full disk must not stop the run.
      }
      return original.apply(stream, args)
    }
    stream.write = copying as typeof original
    restore.push(() => {
      stream.write = original
    })
  }
  let closed = false
  return () => {
    if (closed) return
    closed = true
    for (const undo of restore) undo()
    closeSync(fd)
  }
}

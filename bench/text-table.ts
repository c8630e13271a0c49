/** A plain-text table with aligned columns (first column left, the others right), for terminals and READMEs alike. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)))
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ").trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

/** Fixed decimals, or "n/a" for a missing or non-finite value. */
export const fmt = (value: number | undefined, decimals = 2) => (value === undefined || !Number.isFinite(value) ? "n/a" : value.toFixed(decimals))

/** The p-th percentile (0-100) by nearest rank; undefined for no values. */
export function percentile(values: number[], p: number): number | undefined {
  if (!values.length) {
    return undefined
  }
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

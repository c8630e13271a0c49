const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The data that puts `previous` back over `written`: the payment module
 * merges a session's data into what it holds, so a key the write added is
 * cleared with null (a session whose `transactionId` is null claims no charge).
 */
export function restoringData(previous: Record<string, unknown>, written: Record<string, unknown>): Record<string, unknown> {
  const restored: Record<string, unknown> = { ...previous }
  for (const [key, value] of Object.entries(written)) {
    if (!(key in previous)) {
      restored[key] = null
    } else if (isPlainObject(value) && isPlainObject(previous[key])) {
      restored[key] = restoringData(previous[key], value)
    }
  }
  return restored
}

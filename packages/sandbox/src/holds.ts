/**
 * Real-time waits for requests held by a time-out fault. Shutdown releases them
 * at once (they then drop their connection) so closing never waits for a hold.
 */
export class Holds {
  private readonly pending = new Set<{ timer: NodeJS.Timeout; resolve: (completed: boolean) => void }>()

  /** Resolves true after `ms`, or false when released early by `releaseAll`. */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry)
          resolve(true)
        }, ms),
        resolve,
      }
      this.pending.add(entry)
    })
  }

  releaseAll(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer)
      entry.resolve(false)
    }
    this.pending.clear()
  }
}

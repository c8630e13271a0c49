import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

/** A part of the sandbox whose data is saved with the rest (one JSON section each). */
export interface Persistable {
  readonly name: string
  dump(): unknown
  load(data: unknown): void
  reset(): void
}

const FORMAT = "medusa-payment-tw-sandbox-state"
const VERSION = 1

/**
 * Holds every persistable part and, when given a file, writes them there: debounced
 * after changes (so a burst of requests costs one write) and at shutdown. Writes go
 * to a temporary file first and are renamed, so a crash never leaves half a file.
 */
export class StateStore {
  private readonly parts: Persistable[] = []
  private timer: NodeJS.Timeout | undefined
  private dirty = false
  private closed = false

  constructor(
    private readonly path?: string,
    private readonly debounceMs = 200
  ) {}

  register(part: Persistable): void {
    if (this.parts.some((p) => p.name === part.name)) {
      throw new Error(`state section "${part.name}" registered twice`)
    }
    this.parts.push(part)
  }

  /** Loads the file when there is one; true when state was restored. */
  load(): boolean {
    if (!this.path || !existsSync(this.path)) {
      return false
    }
    let parsed: { format?: unknown; version?: unknown; sections?: Record<string, unknown> }
    try {
      parsed = JSON.parse(readFileSync(this.path, "utf8"))
    } catch (err) {
      throw new Error(`sandbox state file ${this.path} is not valid JSON: ${(err as Error).message}`)
    }
    if (parsed.format !== FORMAT || parsed.version !== VERSION || typeof parsed.sections !== "object") {
      throw new Error(`sandbox state file ${this.path} is not a version ${VERSION} sandbox state`)
    }
    for (const part of this.parts) {
      if (parsed.sections && part.name in parsed.sections) {
        part.load(parsed.sections[part.name])
      }
    }
    return true
  }

  markDirty(): void {
    if (!this.path || this.closed) {
      return
    }
    this.dirty = true
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.saveNow()
      }, this.debounceMs)
      this.timer.unref()
    }
  }

  saveNow(): void {
    if (!this.path) {
      return
    }
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    const sections: Record<string, unknown> = {}
    for (const part of this.parts) {
      sections[part.name] = part.dump()
    }
    const text = JSON.stringify({ format: FORMAT, version: VERSION, savedAt: new Date().toISOString(), sections })
    mkdirSync(dirname(this.path), { recursive: true })
    const tmp = `${this.path}.${process.pid}.tmp`
    writeFileSync(tmp, text)
    renameSync(tmp, this.path)
    this.dirty = false
  }

  reset(): void {
    for (const part of this.parts) {
      part.reset()
    }
    this.markDirty()
  }

  /** Saves whatever is pending; called at shutdown. */
  close(): void {
    if (this.path && !this.closed) {
      this.saveNow()
    }
    this.closed = true
  }

  get hasUnsavedChanges(): boolean {
    return this.dirty
  }
}

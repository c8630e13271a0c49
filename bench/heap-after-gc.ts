// A Medusa process's live heap after a full garbage collection, read through the V8 inspector: RSS alone
// cannot tell garbage not yet collected (or pages V8 keeps) from state the process holds.
import { setTimeout as sleep } from "node:timers/promises"
import { type MessageEvent, WebSocket } from "undici"

/** Where `SIGUSR1` opens a Node process's inspector (Node's default; the bench reads one process at a time). */
const INSPECTOR = "http://127.0.0.1:9229"

/**
 * MB of V8 heap in use in `pid` right after a forced full collection, or undefined when the inspector
 * cannot be reached. Opens the inspector with SIGUSR1 and closes it again, so the process is left as it was.
 */
export async function liveHeapMb(pid: number): Promise<number | undefined> {
  process.kill(pid, "SIGUSR1")
  const target = await inspectorTarget()
  if (!target) {
    return undefined
  }
  const socket = new WebSocket(target)
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true })
    socket.addEventListener("error", reject, { once: true })
  })
  let nextId = 0
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } }
        if (message.id === id) {
          socket.removeEventListener("message", onMessage)
          if (message.error) {
            reject(new Error(message.error.message))
          } else {
            resolve(message.result ?? {})
          }
        }
      }
      socket.addEventListener("message", onMessage)
      socket.send(JSON.stringify({ id, method, params }))
    })
  try {
    const { result } = (await call("Runtime.evaluate", { expression: "process.pid" })) as { result: { value: number } }
    if (result.value !== pid) {
      // Another process still held the port: not the process asked about.
      return undefined
    }
    await call("HeapProfiler.collectGarbage")
    const { usedSize } = (await call("Runtime.getHeapUsage")) as { usedSize: number }
    return usedSize / 2 ** 20
  } finally {
    // Closed from a timer, after this answer: closing inside the evaluation would wait on this very session.
    await call("Runtime.evaluate", { expression: "setTimeout(() => process._debugEnd(), 50); 0" }).catch(() => undefined)
    socket.close()
    await inspectorClosed()
  }
}

async function inspectorTarget(): Promise<string | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const response = await fetch(`${INSPECTOR}/json/list`)
      const [target] = (await response.json()) as Array<{ webSocketDebuggerUrl: string }>
      return target?.webSocketDebuggerUrl
    } catch {
      await sleep(100)
    }
  }
  return undefined
}

async function inspectorClosed(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await fetch(`${INSPECTOR}/json/list`)
      await sleep(100)
    } catch {
      return
    }
  }
}

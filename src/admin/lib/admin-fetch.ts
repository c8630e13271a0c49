import { useCallback, useEffect, useState } from "react"

/** An error answer of a Medusa route: `{ type, message }` (400 not_allowed for a cancel the service refuses). */
export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type?: string
  ) {
    super(message)
  }
}

/** Calls the store's admin API with the dashboard's session cookie, as tw-payment-details.tsx does. */
export async function adminFetch<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: options.method ?? "GET",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) {
    throw new AdminApiError(body.message ?? `HTTP ${res.status}`, res.status, body.type)
  }
  return body as T
}

/** GET `path` (none while null) and keep the answer; `reload` reads it again after a change. */
export function useAdminGet<T>(path: string | null) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: !!path })
  const [version, setVersion] = useState(0)
  useEffect(() => {
    if (!path) {
      return
    }
    let current = true
    setState((s) => ({ ...s, loading: true }))
    adminFetch<T>(path).then(
      (data) => current && setState({ data, loading: false }),
      (e: Error) => current && setState({ error: e.message, loading: false })
    )
    // A slower earlier answer must not overwrite the page the merchant moved to.
    return () => {
      current = false
    }
  }, [path, version])
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { ...state, reload }
}

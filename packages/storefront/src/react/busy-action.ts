import { useCallback, useEffect, useRef, useState } from "react"

/**
 * One action of a component at a time: `busy` while it runs (buttons are
 * disabled), and the failure it ended with (`error`), cleared by the next run.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const running = useRef(false)
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) {
      return undefined
    }
    running.current = true
    setBusy(true)
    setError(undefined)
    try {
      return await action()
    } catch (failure) {
      if (mounted.current) {
        setError(failure)
      }
      return undefined
    } finally {
      running.current = false
      if (mounted.current) {
        setBusy(false)
      }
    }
  }, [])

  return { busy, error, setError, run }
}

/** Where the shopper is sent by default: the whole page goes to the service's page. */
export const assignLocation = (url: string): void => window.location.assign(url)

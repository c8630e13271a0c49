import type { Locale, Texts } from "./texts"

/**
 * Shows the sandbox's 3-D Secure page (`path`, e.g. `/sdk/3ds/{challengeId}`) in a full-page
 * overlay and resolves with its outcome once that page, and only that page, says it is done.
 * The page posts `{ source: "twpay-3ds", type: "complete", outcome }` to this page's origin.
 */
export function showChallenge(base: string, path: string, locale: Locale, text: Texts): Promise<unknown> {
  return new Promise((resolve) => {
    const overlay = document.createElement("div")
    overlay.id = "twpay-3ds-overlay"
    overlay.setAttribute("role", "dialog")
    overlay.setAttribute("aria-label", text.challenge)
    overlay.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center"
    const frame = document.createElement("iframe")
    frame.id = "twpay-3ds-frame"
    frame.name = "twpay-3ds-frame"
    frame.title = text.challenge
    frame.src = `${base}${path}?locale=${locale}`
    frame.style.cssText = "width:420px;max-width:95vw;height:460px;border:0;border-radius:8px;background:#fff"

    function onMessage(event: MessageEvent): void {
      if (event.source !== frame.contentWindow || event.origin !== base) {
        return
      }
      const msg: unknown = event.data
      if (!isComplete(msg)) {
        return
      }
      window.removeEventListener("message", onMessage)
      if (overlay.parentNode) {
        overlay.parentNode.removeChild(overlay)
      }
      resolve(msg.outcome)
    }

    window.addEventListener("message", onMessage)
    overlay.appendChild(frame)
    document.body.appendChild(overlay)
  })
}

function isComplete(msg: unknown): msg is { outcome?: unknown } {
  const m = msg as { source?: unknown; type?: unknown } | null | undefined
  return !!m && m.source === "twpay-3ds" && m.type === "complete"
}

import { createHash } from "node:crypto"
import { Router } from "../router"
import { html, type Mount, type SandboxRequest, type SandboxResponse, text } from "../server"
import type { EmbeddedContext } from "./context"
import { isLocalHost } from "./domains"
import { FRAME_HTML } from "./frame-html"
import type { EmbeddedAccount } from "./keys"
import type { ThreeDsOutcome } from "./intents"
import { SDK_SCRIPT } from "./sdk-script"
import { SDK_VERSION } from "./sdk/version"
import { challengeDonePage, challengePage, type Locale } from "./three-ds-html"

/**
 * The browser parts under `/sdk`:
 * - `/sdk/v1.4.0/twpay.js`: the version-pinned script; its bytes never change, so its
 *   `integrity` (sha384) is fixed; cached for a year;
 * - `/sdk/v1/twpay.js`: the floating major version (the same bytes today, cached 5 minutes;
 *   a floating path cannot carry an integrity hash);
 * - `/sdk/v1.4.0/frame.html`: the payment frame, framable only by the key's allowed domains
 *   (`Content-Security-Policy: frame-ancestors`);
 * - `/sdk/3ds/{challengeId}`: the 3-D Secure challenge page (GET shows it, POST answers it).
 * Scripts are served with `Access-Control-Allow-Origin: *` and
 * `Cross-Origin-Resource-Policy: cross-origin`, as `<script crossorigin>` with SRI needs.
 */

export const SDK_PINNED_PATH = `/sdk/v${SDK_VERSION}/twpay.js`
export const SDK_FLOATING_PATH = "/sdk/v1/twpay.js"
export const SDK_FRAME_PATH = `/sdk/v${SDK_VERSION}/frame.html`
export const SDK_INTEGRITY = `sha384-${createHash("sha384").update(SDK_SCRIPT, "utf8").digest("base64")}`

const THREE_DS_OUTCOMES: ThreeDsOutcome[] = ["success", "failure", "cancel", "timeout"]

type PageHandler = (req: SandboxRequest, params: Record<string, string>) => SandboxResponse

export function createSdkMount(ctx: EmbeddedContext): Mount {
  const script = (cacheControl: string): SandboxResponse => ({
    status: 200,
    headers: {
      "content-type": "application/javascript; charset=utf-8",
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
      "x-content-type-options": "nosniff",
      "cache-control": cacheControl,
    },
    body: SDK_SCRIPT,
  })

  const router = new Router<PageHandler>()
    .add("GET", `/v${SDK_VERSION}/twpay.js`, () => script("public, max-age=31536000, immutable"))
    .add("GET", "/v1/twpay.js", () => script("public, max-age=300"))
    .add("GET", `/v${SDK_VERSION}/frame.html`, (req) => {
      const match = ctx.accounts.lookup(req.query.get("pk") ?? "")
      const account = match?.kind === "publishable" ? match.account : undefined
      return framed(html(200, FRAME_HTML), account)
    })
    .add("GET", "/3ds/{challengeId}", (req, params) => showChallenge(params.challengeId, localeOf(req.query.get("locale"))))
    .add("POST", "/3ds/{challengeId}", (req, params) => {
      const form = new URLSearchParams(req.body.toString("utf8"))
      return answerChallenge(params.challengeId, form.get("outcome") ?? "", localeOf(form.get("locale")))
    })

  const showChallenge = (challengeId: string, locale: Locale): SandboxResponse => {
    const intent = ctx.intents.byChallenge(challengeId)
    const challenge = intent?.challenge
    if (!intent || !challenge) {
      return html(404, challengeDonePage({ locale, outcome: "unknown", targetOrigin: null, finished: false }))
    }
    const account = ctx.accounts.find(intent.merchantId)
    if (challenge.endedAt !== null || intent.status !== "requiresAction") {
      return framed(html(200, challengeDonePage({ locale, outcome: challenge.outcome ?? "unknown", targetOrigin: challenge.checkoutOrigin, finished: false })), account)
    }
    const page = challengePage({
      locale,
      action: `/sdk/3ds/${challengeId}`,
      amount: intent.amount,
      currency: intent.currency,
      timeoutMs: ctx.options.threeDsPageTimeoutMs,
    })
    return framed(html(200, page), account)
  }

  const answerChallenge = (challengeId: string, outcome: string, locale: Locale): SandboxResponse => {
    const intent = ctx.intents.byChallenge(challengeId)
    const challenge = intent?.challenge
    if (!intent || !challenge) {
      return html(404, challengeDonePage({ locale, outcome: "unknown", targetOrigin: null, finished: false }))
    }
    if (!THREE_DS_OUTCOMES.includes(outcome as ThreeDsOutcome)) {
      return text(400, "outcome must be success, failure, cancel or timeout")
    }
    const running = challenge.endedAt === null && intent.status === "requiresAction"
    if (running) {
      ctx.intents.finishChallenge(intent, outcome as ThreeDsOutcome)
    }
    const page = challengeDonePage({ locale, outcome: challenge.outcome ?? outcome, targetOrigin: challenge.checkoutOrigin, finished: running })
    return framed(html(200, page), ctx.accounts.find(intent.merchantId))
  }

  return {
    prefix: "/sdk",
    handle(req) {
      const route = router.match(req.method, req.path)
      if (route.kind === "not-found") {
        return text(404, "Not Found")
      }
      if (route.kind === "method-not-allowed") {
        return text(405, "Method Not Allowed", { allow: route.allowed.join(", ") })
      }
      return route.handler(req, route.params)
    },
  }
}

function localeOf(value: string | null): Locale {
  return value === "en" ? "en" : "zh-TW"
}

/** Only the merchant's allowed domains may frame these pages (an unknown key: nobody). */
function framed(response: SandboxResponse, account: EmbeddedAccount | undefined): SandboxResponse {
  if ("drop" in response) {
    return response
  }
  const sources = (account?.allowedDomains ?? []).flatMap((domain) =>
    isLocalHost(domain) ? [`http://${domain}:*`, `https://${domain}:*`] : [`https://${domain}:*`]
  )
  return {
    ...response,
    headers: {
      ...response.headers,
      "content-security-policy": `frame-ancestors ${sources.length > 0 ? sources.join(" ") : "'none'"}`,
      "referrer-policy": "no-referrer",
    },
  }
}

import { Router } from "../router"
import { html, type Mount, redirect, type SandboxRequest, type SandboxResponse, text } from "../server"
import type { HostedContext } from "./context"
import { codePage, messagePage, paymentPage, threeDsPage } from "./page-html"
import type { HostedPayments, PageOutcome, PaymentForm } from "./payments"
import type { CheckoutSession, SessionKind } from "./records"

/**
 * The hosted pages under `/checkout` (spec section 4 page paths). A page is valid
 * for 5 minutes (binding: 10) from the API call on the sandbox clock. After that
 * the consumer goes to `failureUrl?payment_error=V0002` and the transaction stays
 * as it was. Success goes to `successUrl` unchanged; failure to `failureUrl` with
 * `payment_error`. A null address shows a result page instead.
 */

const PAGE_PATHS: Record<SessionKind, string> = {
  checkout: "/checkout/",
  subscription: "/checkout/subscription/",
  schedule: "/checkout/schedule/",
  binding: "/checkout/subscription/create/",
}

type PageHandler = (req: SandboxRequest, id: string) => SandboxResponse

export function createHostedPages(ctx: HostedContext, payments: HostedPayments): Mount {
  const router = new Router<PageHandler>()
  for (const [kind, path] of Object.entries(PAGE_PATHS) as [SessionKind, string][]) {
    const template = `${path.slice("/checkout".length)}{id}`
    router.add("GET", template, (req, id) => withSession(id, kind, (s) => showPage(req, s)))
    router.add("POST", template, (req, id) => withSession(id, kind, (s) => submitPage(req, s)))
  }
  router.add("GET", "/3ds/{id}", (_req, id) => withSession(id, undefined, showThreeDs))
  router.add("POST", "/3ds/{id}", (_req, id) => withSession(id, undefined, (s) => respond(s, payments.completeThreeDs(s))))
  router.add("GET", "/result/{id}", (_req, id) => withSession(id, undefined, showResult))
  router.add("GET", "/expired/{id}", (_req, id) =>
    withSession(id, undefined, (s) => (isExpired(s) ? expiredResponse(s) : redirect(`${PAGE_PATHS[s.kind]}${s.id}`)))
  )

  const withSession = (
    id: string,
    kind: SessionKind | undefined,
    then: (session: CheckoutSession) => SandboxResponse
  ): SandboxResponse => {
    const session = ctx.records.session(id)
    if (!session || (kind && session.kind !== kind)) {
      return html(404, messagePage("Checkout not found", "This checkout page does not exist."))
    }
    return then(session)
  }

  const isExpired = (session: CheckoutSession): boolean =>
    session.state === "expired" || (session.state === "open" && ctx.core.clock.nowMs() >= Date.parse(session.expiresAt))

  const expiredResponse = (session: CheckoutSession): SandboxResponse => {
    if (session.state === "open") {
      session.state = "expired"
    }
    return session.failureUrl
      ? redirect(withPaymentError(session.failureUrl, "V0002"))
      : html(200, messagePage("Checkout expired", "The time for this payment has run out.", "expired"))
  }

  const showPage = (req: SandboxRequest, session: CheckoutSession, error?: string): SandboxResponse => {
    if (isExpired(session)) {
      return expiredResponse(session)
    }
    switch (session.state) {
      case "threeDs":
        return redirect(`/checkout/3ds/${session.id}`)
      case "awaiting":
        return redirect(`/checkout/result/${session.id}`)
      case "succeeded":
      case "failed":
        return html(200, messagePage("Checkout finished", "This checkout has already been completed.", "finished"))
      default: {
        // Apple Pay is offered when the page is opened as `?applePay=1` (the sandbox's stand-in for a capable device).
        const applePayDevice =
          req.query.get("applePay") === "1" ||
          (req.method === "POST" && new URLSearchParams(req.body.toString("utf8")).get("applePayDevice") === "1")
        return html(
          error ? 400 : 200,
          paymentPage({
            session,
            action: `${PAGE_PATHS[session.kind]}${session.id}`,
            methods: payments.methodsFor(session, applePayDevice),
            applePayDevice,
            remainingMs: Date.parse(session.expiresAt) - ctx.core.clock.nowMs(),
            expiredPath: `/checkout/expired/${session.id}`,
            error,
          })
        )
      }
    }
  }

  const submitPage = (req: SandboxRequest, session: CheckoutSession): SandboxResponse => {
    if (isExpired(session) || session.state !== "open") {
      return showPage(req, session)
    }
    const form = new URLSearchParams(req.body.toString("utf8"))
    const input: PaymentForm = {
      method: form.get("method") ?? "",
      cardNumber: form.get("cardNumber") ?? "",
      cardExpiry: form.get("cardExpiry") ?? "",
      cardCvc: form.get("cardCvc") ?? "",
      payerEmail: form.get("payerEmail") ?? "",
      cvsName: form.get("cvsName") ?? "",
      applePayDevice: form.get("applePayDevice") === "1",
      applePayOutcome: form.get("applePayOutcome") ?? "success",
    }
    const outcome = payments.submit(session, input)
    if (outcome.kind === "invalid") {
      return showPage(req, session, outcome.problem)
    }
    return respond(session, outcome)
  }

  const showThreeDs = (session: CheckoutSession): SandboxResponse => {
    if (session.state !== "threeDs") {
      return html(200, messagePage("Verification finished", "This verification is no longer running.", "finished"))
    }
    return html(200, threeDsPage(session, `/checkout/3ds/${session.id}`))
  }

  const showResult = (session: CheckoutSession): SandboxResponse => {
    const tx = session.transactionId ? ctx.records.transaction(session.transactionId) : undefined
    if (session.state === "awaiting" && tx) {
      return html(200, codePage(tx, session.successUrl))
    }
    if (session.state === "succeeded") {
      return html(200, messagePage("Payment complete", "Thank you. You can close this page.", "result"))
    }
    if (session.state === "failed") {
      return html(200, messagePage("Payment failed", `The payment did not go through (${session.paymentError ?? "error"}).`, "result"))
    }
    return redirect(`${PAGE_PATHS[session.kind]}${session.id}`)
  }

  const respond = (session: CheckoutSession, outcome: PageOutcome): SandboxResponse => {
    switch (outcome.kind) {
      case "succeeded":
        return redirect(session.successUrl ?? `/checkout/result/${session.id}`)
      case "failed":
        return redirect(session.failureUrl ? withPaymentError(session.failureUrl, outcome.paymentError) : `/checkout/result/${session.id}`)
      case "threeDs":
        return redirect(`/checkout/3ds/${session.id}`)
      case "awaiting":
        return redirect(`/checkout/result/${session.id}`)
      case "invalid":
        return html(400, messagePage("Verification finished", outcome.problem, "finished"))
    }
  }

  return {
    prefix: "/checkout",
    handle(req) {
      const route = router.match(req.method, req.path)
      if (route.kind === "not-found") {
        return text(404, "Not Found")
      }
      if (route.kind === "method-not-allowed") {
        return text(405, "Method Not Allowed", { allow: route.allowed.join(", ") })
      }
      return route.handler(req, route.params.id)
    },
  }
}

/** `payment_error` appended; a fragment is dropped (the spec says it would be). */
export function withPaymentError(failureUrl: string, paymentError: string): string {
  const base = failureUrl.split("#")[0]
  return `${base}${base.includes("?") ? "&" : "?"}payment_error=${encodeURIComponent(paymentError)}`
}

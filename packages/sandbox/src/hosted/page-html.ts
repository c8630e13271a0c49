import type { CheckoutSession, HostedTransaction, PaymentMethod } from "./records"
import { CVS_NAMES } from "./payments"
import { TEST_CARD_TABLE } from "./test-cards"

/**
 * HTML of the hosted pages: self-contained (inline style, no external assets),
 * plain forms that work without JavaScript, and stable `id`/`name` attributes so a
 * headless browser or a plain HTTP client can drive them.
 */

const TITLES: Record<CheckoutSession["kind"], string> = {
  checkout: "Checkout",
  subscription: "Recurring payment",
  schedule: "Scheduled recurring payment",
  binding: "Save your card",
}

const METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Credit card",
  cvs: "Convenience-store code",
  atm: "Bank virtual account (ATM)",
  linePay: "LINE Pay",
  applePay: "Apple Pay",
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function layout(title: string, body: string, extraHead = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - payment sandbox</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}
fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}
label{display:block;margin:.4rem 0}
input[type=text],input[type=email],select{width:100%;padding:.4rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;font-size:1rem}
.error{color:#a00;font-weight:600}
.note{color:#666;font-size:.85rem}
table{border-collapse:collapse;font-size:.8rem}td{padding:.1rem .4rem;border-bottom:1px solid #eee}
.banner{background:#fff3c4;padding:.3rem .6rem;border-radius:4px;font-size:.85rem}
</style>
${extraHead}
</head>
<body>
<p class="banner">Sandbox: no real money moves.</p>
${body}
</body>
</html>`
}

export function paymentPage(input: {
  session: CheckoutSession
  action: string
  methods: PaymentMethod[]
  applePayDevice: boolean
  remainingMs: number
  expiredPath: string
  error?: string
}): string {
  const { session, methods } = input
  const title = TITLES[session.kind]
  const amount = session.amount !== undefined ? `<p id="amount">Amount: <strong>TWD ${session.amount}</strong></p>` : ""
  const description = session.description ? `<p id="description">${escapeHtml(session.description)}</p>` : ""
  const error = input.error ? `<p class="error" id="error" role="alert">${escapeHtml(input.error)}</p>` : ""
  const methodInputs = methods
    .map(
      (m, i) =>
        `<label><input type="radio" name="method" id="method-${m}" value="${m}"${i === 0 ? " checked" : ""}> ${METHOD_LABELS[m]}</label>`
    )
    .join("\n")
  const emailField =
    session.kind === "binding" && !session.payerEmail
      ? `<label for="payerEmail">Cardholder email <input type="email" name="payerEmail" id="payerEmail" autocomplete="email"></label>`
      : ""
  const cvsField = methods.includes("cvs")
    ? `<fieldset id="cvs-fields"><legend>Convenience store</legend>
<select name="cvsName" id="cvsName">${CVS_NAMES.map((n) => `<option value="${n}">${n}</option>`).join("")}</select></fieldset>`
    : ""
  const applePayField = input.applePayDevice
    ? `<input type="hidden" name="applePayDevice" value="1">
<fieldset id="applepay-fields"><legend>Apple Pay (sandbox)</legend>
<select name="applePayOutcome" id="applePayOutcome"><option value="success">Approve</option><option value="pending">Awaiting confirmation</option></select></fieldset>`
    : ""
  const submitLabel = session.kind === "binding" ? "Save card" : "Pay"
  // Leave for the expiry address when the time is up (the server decides what that means).
  const timer = `<script>setTimeout(function(){location.href=${JSON.stringify(input.expiredPath)}},${Math.max(0, input.remainingMs)})</script>`
  return layout(
    title,
    `<h1 id="title">${title}</h1>
${amount}
${description}
<p class="note" id="expires" data-expires-at="${session.expiresAt}">This page is valid until ${session.expiresAt} (sandbox clock).</p>
${error}
<form method="post" action="${escapeHtml(input.action)}" id="payment-form">
<fieldset id="methods"><legend>Payment method</legend>
${methodInputs}
</fieldset>
<fieldset id="card-fields"><legend>Card</legend>
${emailField}
<label for="cardNumber">Card number <input type="text" name="cardNumber" id="cardNumber" inputmode="numeric" autocomplete="cc-number"></label>
<label for="cardExpiry">Expiry (MM/YY) <input type="text" name="cardExpiry" id="cardExpiry" autocomplete="cc-exp" placeholder="12/34"></label>
<label for="cardCvc">CVC <input type="text" name="cardCvc" id="cardCvc" inputmode="numeric" autocomplete="cc-csc"></label>
</fieldset>
${cvsField}
${applePayField}
<button type="submit" id="submit">${submitLabel}</button>
</form>
<details id="test-cards"><summary>Test cards</summary><table>
${TEST_CARD_TABLE.map((c) => `<tr><td>${c.number}</td><td>${escapeHtml(c.outcome)}</td></tr>`).join("\n")}
</table><p class="note">Any future expiry and any 3-digit CVC.</p></details>
${timer}`
  )
}

export function threeDsPage(session: CheckoutSession, action: string): string {
  return layout(
    "3-D Secure verification",
    `<h1 id="title">3-D Secure verification</h1>
<p>Your bank asks you to confirm this payment${session.amount !== undefined ? ` of TWD ${session.amount}` : ""}.</p>
<p class="note">Leaving this page without confirming fails the payment after 10 minutes (sandbox clock).</p>
<form method="post" action="${escapeHtml(action)}" id="threeds-form">
<button type="submit" name="action" value="complete" id="complete">Complete verification</button>
</form>`
  )
}

export function codePage(tx: HostedTransaction, continueUrl: string | null): string {
  const info = tx.paymentInfo
  let details = ""
  if (info && typeof info === "object" && "code" in info) {
    details = `<h1 id="title">Payment code issued</h1>
<p>Pay at <strong id="cvs-name">${escapeHtml(info.cvsName)}</strong> with code <strong id="payment-code">${escapeHtml(info.code)}</strong>.</p>
<p>Pay before <span id="expired-at">${info.expiredAt}</span>.</p>`
  } else if (info && typeof info === "object" && "account" in info) {
    details = `<h1 id="title">Virtual account issued</h1>
<p>Transfer TWD ${tx.amount} to <span id="bank-name">${escapeHtml(info.bankName)}</span> (bank code <span id="bank-code">${escapeHtml(info.bankCode)}</span>), account <strong id="account">${escapeHtml(info.account)}</strong>.</p>
<p>Pay before <span id="expired-at">${info.expiredAt}</span>.</p>`
  } else {
    details = `<h1 id="title">Awaiting confirmation</h1><p>Your wallet payment is waiting for confirmation.</p>`
  }
  const link = continueUrl ? `<p><a id="continue" href="${escapeHtml(continueUrl)}">Back to the shop</a></p>` : ""
  return layout("Payment pending", `${details}\n<p id="amount">Amount: TWD ${tx.amount}</p>\n${link}`)
}

export function messagePage(title: string, message: string, id = "message"): string {
  return layout(title, `<h1 id="title">${escapeHtml(title)}</h1>\n<p id="${id}">${escapeHtml(message)}</p>`)
}


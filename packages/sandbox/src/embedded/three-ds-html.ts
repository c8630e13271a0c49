/**
 * The 3-D Secure challenge page the SDK shows in its overlay (`/sdk/3ds/{challengeId}`),
 * standing in for the card issuer's page. The payer passes, fails or cancels; left alone,
 * the page times the challenge out by itself after the configured real time (and the
 * sandbox clock ends it after 10 minutes anyway). The result page tells the checkout page
 * by postMessage, only to the checkout origin recorded at confirmation.
 */

const TEXT = {
  "zh-TW": {
    title: "3D 驗證",
    ask: "您的發卡銀行要求確認這筆付款",
    pass: "完成驗證",
    fail: "驗證失敗",
    cancel: "取消",
    done: "驗證結束，請稍候…",
    over: "這個驗證已經結束",
  },
  en: {
    title: "3-D Secure verification",
    ask: "Your card issuer asks you to confirm this payment",
    pass: "Complete verification",
    fail: "Fail verification",
    cancel: "Cancel",
    done: "Verification finished, please wait...",
    over: "This verification is no longer running",
  },
}

export type Locale = keyof typeof TEXT

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:24px;color:#222}
h1{font-size:18px}button{display:block;width:100%;margin:8px 0;padding:10px;font-size:15px;border-radius:6px;border:1px solid #999;background:#f5f5f5}
#threeds-pass{background:#1a56db;color:#fff;border-color:#1a56db}.note{color:#666;font-size:12px}`

function layout(locale: Locale, body: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(TEXT[locale].title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>`
}

export function challengePage(input: { locale: Locale; action: string; amount: number; currency: string; timeoutMs: number }): string {
  const t = TEXT[input.locale]
  return layout(
    input.locale,
    `<h1 id="title">${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.ask)}: <strong id="amount">${escapeHtml(input.currency)} ${input.amount}</strong></p>
<form method="post" action="${escapeHtml(input.action)}" id="threeds-form">
<button type="submit" name="outcome" value="success" id="threeds-pass">${escapeHtml(t.pass)}</button>
<button type="submit" name="outcome" value="failure" id="threeds-fail">${escapeHtml(t.fail)}</button>
<button type="submit" name="outcome" value="cancel" id="threeds-cancel">${escapeHtml(t.cancel)}</button>
<input type="hidden" name="locale" value="${input.locale}">
</form>
<p class="note">Sandbox: no real bank is asked.</p>
<script>
setTimeout(function () {
  var form = document.getElementById("threeds-form");
  var field = document.createElement("input");
  field.type = "hidden"; field.name = "outcome"; field.value = "timeout";
  form.appendChild(field);
  form.submit();
}, ${Math.max(0, Math.floor(input.timeoutMs))});
</script>`
  )
}

/** After the outcome: tells the checkout page (and nobody else) that the challenge is over. */
export function challengeDonePage(input: { locale: Locale; outcome: string; targetOrigin: string | null; finished: boolean }): string {
  const t = TEXT[input.locale]
  const message = JSON.stringify({ source: "twpay-3ds", type: "complete", outcome: input.outcome })
  const script = input.targetOrigin
    ? `<script>window.parent.postMessage(${message.replace(/</g, "\\u003c")}, ${JSON.stringify(input.targetOrigin).replace(/</g, "\\u003c")});</script>`
    : ""
  return layout(input.locale, `<h1 id="title">${escapeHtml(t.title)}</h1>\n<p id="${input.finished ? "done" : "over"}">${escapeHtml(input.finished ? t.done : t.over)}</p>\n${script}`)
}

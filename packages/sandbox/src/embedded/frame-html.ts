/**
 * The payment frame (`/sdk/v1.4.0/frame.html?pk=...#clientSecret=...&origin=...&locale=...&theme=...`):
 * the card inputs, served by the sandbox so card data never touches the checkout page.
 * Static bytes: everything variable comes from the URL. The frame
 * - refuses to work unless the `origin` it was given is its real parent
 *   (`location.ancestorOrigins`, else `document.referrer`);
 * - accepts messages only from `window.parent` with that origin, and posts only to it;
 * - calls `/v1/tokens` and `/v1/confirm` itself with the publishable key, sending the
 *   checkout origin as `Twpay-Checkout-Origin` and a fresh `Idempotency-Key` per confirmation;
 * - reports `change` with `valid` (Luhn-valid 12-19 digit number, MM/YY not past, 3-4 digit CVC).
 * Inputs have stable ids and names: `cardNumber`, `cardExpiry`, `cardCvc`.
 */
export const FRAME_HTML = String.raw`<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card payment</title>
<style>
:root{--tw-primary:#1a56db;--tw-font:system-ui,-apple-system,"Segoe UI",sans-serif;--tw-radius:6px}
html,body{margin:0;padding:0;background:transparent;font-family:var(--tw-font);font-size:14px;color:#222}
form{padding:4px}
label{display:block;margin:6px 0 2px;font-size:12px;color:#555}
input{width:100%;box-sizing:border-box;padding:9px 10px;font:inherit;font-size:15px;border:1px solid #ccc;border-radius:var(--tw-radius);outline:none}
input:focus{border-color:var(--tw-primary);box-shadow:0 0 0 2px color-mix(in srgb,var(--tw-primary) 25%,transparent)}
input.invalid{border-color:#c0262d}
.row{display:flex;gap:8px}.row>div{flex:1}
#error{color:#c0262d;min-height:1em;margin:6px 0 0;font-size:12px}
#amount{margin:6px 0 0;font-size:12px;color:#555}
</style>
</head>
<body>
<form id="payment-form" autocomplete="on" novalidate>
<label for="cardNumber" id="label-cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="1234 1234 1234 1234">
<div class="row">
<div><label for="cardExpiry" id="label-cardExpiry">Expiry</label><input id="cardExpiry" name="cardExpiry" type="text" inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="MM/YY"></div>
<div><label for="cardCvc" id="label-cardCvc">CVC</label><input id="cardCvc" name="cardCvc" type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4" placeholder="123"></div>
</div>
<p id="amount"></p>
<p id="error" role="alert"></p>
</form>
<script>
(function () {
  "use strict";
  var TEXT = {
    "zh-TW": { number: "卡號", expiry: "有效期限 (MM/YY)", cvc: "安全碼", amount: "付款金額", incomplete: "請完整填寫卡片資料", wrongParent: "付款表單只能嵌入在允許的結帳頁面中", network: "無法連線到付款服務" },
    en: { number: "Card number", expiry: "Expiry (MM/YY)", cvc: "CVC", amount: "Amount", incomplete: "Please complete your card details", wrongParent: "This payment form can only be embedded in an allowed checkout page", network: "Could not reach the payment service" }
  };
  var query = new URLSearchParams(location.search);
  var params = new URLSearchParams(location.hash.slice(1));
  var publishableKey = query.get("pk") || "";
  var clientSecret = params.get("clientSecret") || "";
  var parentOrigin = params.get("origin") || "";
  var locale = params.get("locale") === "en" ? "en" : "zh-TW";
  var text = TEXT[locale];
  var $ = function (id) { return document.getElementById(id); };
  var number = $("cardNumber"), expiry = $("cardExpiry"), cvc = $("cardCvc"), errorBox = $("error");
  document.documentElement.lang = locale;
  $("label-cardNumber").textContent = text.number;
  $("label-cardExpiry").textContent = text.expiry;
  $("label-cardCvc").textContent = text.cvc;

  var theme = {};
  try { theme = JSON.parse(params.get("theme") || "{}") || {}; } catch (e) { theme = {}; }
  // Only values of a harmless shape reach the style sheet.
  if (typeof theme.colorPrimary === "string" && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$/.test(theme.colorPrimary)) {
    document.documentElement.style.setProperty("--tw-primary", theme.colorPrimary);
  }
  if (typeof theme.fontFamily === "string" && /^[\w\s,"'-]{1,100}$/.test(theme.fontFamily)) {
    document.documentElement.style.setProperty("--tw-font", theme.fontFamily);
  }
  if (typeof theme.borderRadius === "string" && /^\d{1,2}(\.\d+)?(px|rem|em)$/.test(theme.borderRadius)) {
    document.documentElement.style.setProperty("--tw-radius", theme.borderRadius);
  }

  var ancestor = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : null;
  if (!ancestor && document.referrer) {
    try { ancestor = new URL(document.referrer).origin; } catch (e) { ancestor = null; }
  }
  if (window.parent === window || !parentOrigin || !ancestor || ancestor !== parentOrigin) {
    errorBox.textContent = text.wrongParent;
    number.disabled = expiry.disabled = cvc.disabled = true;
    return;
  }

  function post(message) {
    message.source = "twpay-frame";
    window.parent.postMessage(message, parentOrigin);
  }

  function randomKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function api(method, path, body, idempotencyKey) {
    var headers = { authorization: "Bearer " + publishableKey, "twpay-checkout-origin": parentOrigin };
    if (body !== undefined) { headers["content-type"] = "application/json"; }
    if (idempotencyKey) { headers["idempotency-key"] = idempotencyKey; }
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" })
      .then(function (res) {
        return res.text().then(function (raw) {
          var json = null;
          try { json = JSON.parse(raw); } catch (e) { json = null; }
          if (json && json.error) { return { error: { code: json.error.code, message: json.error.message } }; }
          if (json && json.data) { return { data: json.data }; }
          return { error: { code: "UNEXPECTED_RESPONSE", message: "HTTP " + res.status } };
        });
      }, function () {
        return { error: { code: "NETWORK_ERROR", message: text.network } };
      });
  }

  function digits(value) { return value.replace(/\D/g, ""); }
  function luhn(value) {
    var sum = 0, double = false;
    for (var i = value.length - 1; i >= 0; i--) {
      var d = value.charCodeAt(i) - 48;
      if (double) { d *= 2; if (d > 9) { d -= 9; } }
      sum += d; double = !double;
    }
    return sum % 10 === 0;
  }
  function brandOf(n) {
    if (/^4/.test(n)) { return "visa"; }
    if (/^(5[1-5]|2[2-7])/.test(n)) { return "mastercard"; }
    if (/^35/.test(n)) { return "jcb"; }
    if (/^3[47]/.test(n)) { return "amex"; }
    return n ? "unknown" : null;
  }
  function parseExpiry(value) {
    var m = /^(\d{2})\/(\d{2})$/.exec(value);
    if (!m) { return null; }
    var month = Number(m[1]), year = 2000 + Number(m[2]);
    if (month < 1 || month > 12) { return null; }
    var now = new Date();
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) { return null; }
    return { month: month, year: year };
  }
  function state() {
    var n = digits(number.value);
    var numberOk = n.length >= 12 && n.length <= 19 && luhn(n);
    var exp = parseExpiry(expiry.value);
    var cvcOk = /^\d{3,4}$/.test(cvc.value);
    return {
      number: n, expiry: exp, cvc: cvc.value,
      numberOk: numberOk, expiryOk: exp !== null, cvcOk: cvcOk,
      valid: numberOk && exp !== null && cvcOk,
      empty: !number.value && !expiry.value && !cvc.value,
      brand: brandOf(n)
    };
  }

  var last = "";
  function onChange() {
    number.value = digits(number.value).slice(0, 19).replace(/(\d{4})(?=\d)/g, "$1 ");
    var exp = expiry.value.replace(/[^\d]/g, "").slice(0, 4);
    expiry.value = exp.length > 2 ? exp.slice(0, 2) + "/" + exp.slice(2) : exp;
    cvc.value = digits(cvc.value).slice(0, 4);
    var s = state();
    number.classList.toggle("invalid", digits(number.value).length >= 12 && !s.numberOk);
    expiry.classList.toggle("invalid", expiry.value.length === 5 && !s.expiryOk);
    errorBox.textContent = "";
    var summary = JSON.stringify([s.valid, s.empty, s.brand]);
    if (summary !== last) {
      last = summary;
      post({ type: "change", valid: s.valid, empty: s.empty, brand: s.brand });
    }
  }
  number.addEventListener("input", onChange);
  expiry.addEventListener("input", onChange);
  cvc.addEventListener("input", onChange);
  $("payment-form").addEventListener("submit", function (event) { event.preventDefault(); });

  var busy = false;
  function confirm(message) {
    var s = state();
    if (!s.valid) {
      errorBox.textContent = text.incomplete;
      return Promise.resolve({ error: { code: "INVALID_REQUEST", message: text.incomplete } });
    }
    if (busy) {
      return Promise.resolve({ error: { code: "INVALID_REQUEST", message: "busy" } });
    }
    busy = true;
    var card = { number: s.number, expMonth: s.expiry.month, expYear: s.expiry.year, cvc: s.cvc };
    return api("POST", "/v1/tokens", { card: card })
      .then(function (token) {
        if (token.error) { return token; }
        return api("POST", "/v1/confirm", { clientSecret: clientSecret, token: token.data.id, returnUrl: message.returnUrl }, randomKey())
          .then(function (confirmed) {
            return confirmed.error ? confirmed : { paymentIntent: confirmed.data };
          });
      })
      .then(function (result) {
        busy = false;
        if (result.error) { errorBox.textContent = result.error.message || result.error.code; }
        return result;
      });
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || event.origin !== parentOrigin) { return; }
    var msg = event.data;
    if (!msg || typeof msg !== "object" || msg.source !== "twpay-sdk") { return; }
    if (msg.type === "confirm") {
      confirm(msg).then(function (result) { post({ type: "result", id: msg.id, result: result }); });
    }
  });

  var intentId = clientSecret.split("_secret_")[0];
  api("GET", "/v1/payment-intents/" + encodeURIComponent(intentId) + "/status?clientSecret=" + encodeURIComponent(clientSecret))
    .then(function (read) {
      if (read.error) {
        errorBox.textContent = read.error.message || read.error.code;
        post({ type: "loaderror", error: read.error });
      } else {
        $("amount").textContent = text.amount + ": " + read.data.currency + " " + read.data.amount;
      }
      post({ type: "resize", height: document.documentElement.scrollHeight + 4 });
      // Ready even after a load error: a confirmation then reports the API's own error.
      post({ type: "ready" });
    });
})();
</script>
</body>
</html>
`

/**
 * The browser SDK, `twpay.js` 1.4.0: plain browser JavaScript, no build step. Its bytes
 * must never depend on the sandbox's address or port, because the pinned path is
 * published with a fixed `integrity` hash: the SDK finds the sandbox from its own
 * `<script src>`.
 *
 *   const twpay = TwPay("pk_...", { locale: "zh-TW" })
 *   const elements = twpay.elements({ clientSecret })
 *   const payment = elements.create("payment", { theme: { colorPrimary, fontFamily, borderRadius } })
 *   payment.mount("#card"); payment.on("change", (e) => e.valid)
 *   const { error } = await twpay.confirmPayment({ elements, confirmParams: { returnUrl } })
 *   const { paymentIntent } = await twpay.retrievePaymentIntent(clientSecret)
 *
 * Card data stays in the payment frame (served by the sandbox); the page and the frame
 * talk only by postMessage, each checking the other's window and origin. A 3-D Secure
 * challenge is shown as an overlay iframe; after it, the SDK re-reads the intent.
 */
export const SDK_VERSION = "1.4.0"

export const SDK_SCRIPT = String.raw`/*! twpay.js 1.4.0 (payment sandbox) */
(function (global) {
  "use strict";
  var VERSION = "1.4.0";
  var FRAME_PATH = "/sdk/v1.4.0/frame.html";
  var KEY_PATTERN = /^pk_[0-9A-Za-z_]{24}$/;
  var current = document.currentScript;
  var BASE = current && current.src ? new URL(current.src, global.location.href).origin : "";
  var TEXT = {
    "zh-TW": {
      notMounted: "付款表單尚未載入",
      incomplete: "請完整填寫卡片資料",
      busy: "付款處理中，請稍候",
      network: "無法連線到付款服務",
      challenge: "3D 驗證"
    },
    en: {
      notMounted: "The payment form is not mounted",
      incomplete: "Please complete your card details",
      busy: "A payment is already being confirmed",
      network: "Could not reach the payment service",
      challenge: "3-D Secure verification"
    }
  };

  function fail(code, message) {
    return { error: { code: code, message: message } };
  }

  function intentIdOf(clientSecret) {
    var at = typeof clientSecret === "string" ? clientSecret.indexOf("_secret_") : -1;
    return at > 0 ? clientSecret.slice(0, at) : null;
  }

  function TwPay(publishableKey, options) {
    if (typeof publishableKey !== "string" || !KEY_PATTERN.test(publishableKey)) {
      throw new Error("TwPay: a publishable key (pk_ + 24 characters) is required");
    }
    if (!BASE) {
      throw new Error("TwPay: load twpay.js with a <script src> tag");
    }
    options = options || {};
    var locale = options.locale === "en" ? "en" : "zh-TW";
    var text = TEXT[locale];
    var confirming = false;

    function retrievePaymentIntent(clientSecret) {
      var id = intentIdOf(clientSecret);
      if (!id) {
        return Promise.resolve(fail("INVALID_REQUEST", "clientSecret is malformed"));
      }
      var url = BASE + "/v1/payment-intents/" + encodeURIComponent(id) + "/status?clientSecret=" + encodeURIComponent(clientSecret);
      return fetch(url, { method: "GET", mode: "cors", credentials: "omit", headers: { authorization: "Bearer " + publishableKey } })
        .then(function (res) {
          return res.json().then(
            function (body) {
              if (body && body.data) {
                var pi = { id: body.data.id, status: body.data.status, amount: body.data.amount, currency: body.data.currency };
                if (body.data.lastPaymentError) {
                  pi.lastPaymentError = body.data.lastPaymentError;
                }
                return { paymentIntent: pi };
              }
              if (body && body.error) {
                return fail(body.error.code, body.error.message);
              }
              return fail("UNEXPECTED_RESPONSE", "HTTP " + res.status);
            },
            function () {
              return fail("UNEXPECTED_RESPONSE", "HTTP " + res.status);
            }
          );
        })
        .catch(function () {
          return fail("NETWORK_ERROR", text.network);
        });
    }

    function showChallenge(path) {
      return new Promise(function (resolve) {
        var overlay = document.createElement("div");
        overlay.id = "twpay-3ds-overlay";
        overlay.setAttribute("role", "dialog");
        overlay.setAttribute("aria-label", text.challenge);
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center";
        var frame = document.createElement("iframe");
        frame.id = "twpay-3ds-frame";
        frame.name = "twpay-3ds-frame";
        frame.title = text.challenge;
        frame.src = BASE + path + "?locale=" + locale;
        frame.style.cssText = "width:420px;max-width:95vw;height:460px;border:0;border-radius:8px;background:#fff";
        function onMessage(event) {
          if (event.source !== frame.contentWindow || event.origin !== BASE) {
            return;
          }
          var msg = event.data;
          if (!msg || msg.source !== "twpay-3ds" || msg.type !== "complete") {
            return;
          }
          global.removeEventListener("message", onMessage);
          if (overlay.parentNode) {
            overlay.parentNode.removeChild(overlay);
          }
          resolve(msg.outcome);
        }
        global.addEventListener("message", onMessage);
        overlay.appendChild(frame);
        document.body.appendChild(overlay);
      });
    }

    function redirect(returnUrl, clientSecret, paymentIntent) {
      var target = new URL(returnUrl, global.location.href);
      target.searchParams.set("payment_intent", paymentIntent.id);
      target.searchParams.set("payment_intent_client_secret", clientSecret);
      target.searchParams.set("redirect_status", paymentIntent.status === "succeeded" ? "succeeded" : "processing");
      global.location.assign(target.toString());
      // The page is leaving: the promise stays pending, as nothing else will happen here.
      return new Promise(function () {});
    }

    function settle(returnUrl, clientSecret, paymentIntent, nextAction) {
      if (paymentIntent.status === "succeeded" || paymentIntent.status === "processing") {
        return redirect(returnUrl, clientSecret, paymentIntent);
      }
      if (paymentIntent.status === "requiresAction" && nextAction && nextAction.url) {
        return showChallenge(nextAction.url).then(function () {
          return retrievePaymentIntent(clientSecret).then(function (read) {
            if (read.error) {
              return read;
            }
            return settle(returnUrl, clientSecret, read.paymentIntent, null);
          });
        });
      }
      var err = paymentIntent.lastPaymentError;
      return Promise.resolve(fail(err ? err.code : "INVALID_REQUEST", err ? err.message || err.code : "payment intent is " + paymentIntent.status));
    }

    function confirmPayment(params) {
      params = params || {};
      var elements = params.elements;
      var returnUrl = params.confirmParams && params.confirmParams.returnUrl;
      var payment = elements && elements._payment;
      if (!payment || !payment._isMounted()) {
        return Promise.resolve(fail("INVALID_REQUEST", text.notMounted));
      }
      if (typeof returnUrl !== "string" || !returnUrl) {
        return Promise.resolve(fail("INVALID_REQUEST", "confirmParams.returnUrl is required"));
      }
      if (confirming) {
        return Promise.resolve(fail("INVALID_REQUEST", text.busy));
      }
      confirming = true;
      var absoluteReturnUrl = new URL(returnUrl, global.location.href).toString();
      return payment
        ._request({ type: "confirm", returnUrl: absoluteReturnUrl })
        .then(function (result) {
          if (result.error) {
            return fail(result.error.code, result.error.message);
          }
          return settle(absoluteReturnUrl, elements.clientSecret, result.paymentIntent, result.paymentIntent.nextAction);
        })
        .then(
          function (outcome) {
            confirming = false;
            return outcome;
          },
          function (err) {
            confirming = false;
            return fail("INTERNAL_ERROR", String(err && err.message ? err.message : err));
          }
        );
    }

    function elements(groupOptions) {
      var clientSecret = groupOptions && groupOptions.clientSecret;
      if (!intentIdOf(clientSecret)) {
        throw new Error("TwPay: elements({ clientSecret }) needs the payment intent's client secret");
      }
      var group = {
        clientSecret: clientSecret,
        _payment: null,
        create: function (type, elementOptions) {
          if (type !== "payment") {
            throw new Error("TwPay: unknown element type " + type + " (only \"payment\")");
          }
          if (group._payment) {
            throw new Error("TwPay: this elements group already has a payment element");
          }
          group._payment = createPaymentElement(publishableKey, locale, clientSecret, (elementOptions && elementOptions.theme) || {});
          return group._payment;
        }
      };
      return group;
    }

    return {
      version: VERSION,
      elements: elements,
      confirmPayment: confirmPayment,
      retrievePaymentIntent: retrievePaymentIntent
    };
  }

  function createPaymentElement(publishableKey, locale, clientSecret, theme) {
    var listeners = {};
    var iframe = null;
    var ready = false;
    var queue = [];
    var pending = {};
    var seq = 0;

    function emit(name, event) {
      (listeners[name] || []).slice().forEach(function (handler) {
        try {
          handler(event);
        } catch (err) {
          setTimeout(function () {
            throw err;
          });
        }
      });
    }

    function send(message) {
      if (!iframe || !iframe.contentWindow) {
        return;
      }
      message.source = "twpay-sdk";
      if (ready) {
        iframe.contentWindow.postMessage(message, BASE);
      } else {
        queue.push(message);
      }
    }

    function onMessage(event) {
      if (!iframe || event.source !== iframe.contentWindow || event.origin !== BASE) {
        return;
      }
      var msg = event.data;
      if (!msg || typeof msg !== "object" || msg.source !== "twpay-frame") {
        return;
      }
      if (msg.type === "ready") {
        ready = true;
        queue.splice(0).forEach(function (queued) {
          iframe.contentWindow.postMessage(queued, BASE);
        });
        emit("ready", { elementType: "payment" });
      } else if (msg.type === "change") {
        emit("change", { elementType: "payment", valid: msg.valid === true, empty: msg.empty === true, brand: msg.brand || null });
      } else if (msg.type === "resize" && typeof msg.height === "number") {
        iframe.style.height = Math.max(80, Math.min(600, msg.height)) + "px";
      } else if (msg.type === "loaderror") {
        emit("loaderror", { elementType: "payment", error: msg.error });
      } else if (msg.type === "result" && pending[msg.id]) {
        var resolve = pending[msg.id];
        delete pending[msg.id];
        resolve(msg.result || fail("INTERNAL_ERROR", "empty result"));
      }
    }

    var element = {
      mount: function (target) {
        var node = typeof target === "string" ? document.querySelector(target) : target;
        if (!node || typeof node.appendChild !== "function") {
          throw new Error("TwPay: mount target not found: " + target);
        }
        if (iframe) {
          throw new Error("TwPay: the payment element is already mounted");
        }
        var hash = new URLSearchParams();
        hash.set("clientSecret", clientSecret);
        hash.set("origin", global.location.origin);
        hash.set("locale", locale);
        hash.set("theme", JSON.stringify(theme || {}));
        iframe = document.createElement("iframe");
        iframe.name = "twpay-payment-frame";
        iframe.title = locale === "en" ? "Secure card payment form" : "安全的信用卡付款表單";
        iframe.setAttribute("scrolling", "no");
        iframe.style.cssText = "border:0;width:100%;height:180px;display:block;overflow:hidden;background:transparent";
        iframe.src = BASE + FRAME_PATH + "?pk=" + encodeURIComponent(publishableKey) + "#" + hash.toString();
        ready = false;
        global.addEventListener("message", onMessage);
        node.appendChild(iframe);
        return element;
      },
      unmount: function () {
        global.removeEventListener("message", onMessage);
        if (iframe && iframe.parentNode) {
          iframe.parentNode.removeChild(iframe);
        }
        iframe = null;
        ready = false;
        queue = [];
        Object.keys(pending).forEach(function (id) {
          pending[id](fail("INVALID_REQUEST", "the payment element was unmounted"));
          delete pending[id];
        });
        return element;
      },
      on: function (name, handler) {
        (listeners[name] = listeners[name] || []).push(handler);
        return element;
      },
      off: function (name, handler) {
        listeners[name] = (listeners[name] || []).filter(function (h) {
          return h !== handler;
        });
        return element;
      },
      _isMounted: function () {
        return iframe !== null;
      },
      _request: function (message) {
        return new Promise(function (resolve) {
          var id = ++seq;
          pending[id] = resolve;
          message.id = id;
          send(message);
        });
      }
    };
    return element;
  }

  global.TwPay = TwPay;
})(window);
`

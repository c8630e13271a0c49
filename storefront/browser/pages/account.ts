import type { HttpTypes } from "@medusajs/types"
import { ACCOUNT_SECTIONS } from "../account/sections"
import { currentCart } from "../cart"
import { loggedInCustomer, logIn, logOut, register, safeNext } from "../customer"
import { byId, el, showMessage } from "../element"
import { runPage, showCartCount } from "../page"
import { storeErrorMessage } from "../store-error"

/**
 * /account: a guest logs in or creates an account (then goes back to `?next=`
 * when a page sent them here); a logged-in customer sees each section of
 * ACCOUNT_SECTIONS in its own panel.
 */

function formValue(form: HTMLFormElement, name: string): string {
  return String(new FormData(form).get(name) ?? "").trim()
}

/** Runs a form's submission with its button disabled and its error line updated. */
function onSubmit(formId: string, errorId: string, work: (form: HTMLFormElement) => Promise<void>) {
  const form = byId<HTMLFormElement>(formId)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
    button.disabled = true
    showMessage(byId(errorId), undefined)
    work(form)
      .catch((error: unknown) => showMessage(byId(errorId), storeErrorMessage(error)))
      .finally(() => {
        button.disabled = false
      })
  })
}

/** Logged in: back to the page that asked, or this page drawn again with the customer's sections. */
function loggedIn() {
  location.assign(safeNext(new URLSearchParams(location.search).get("next")) ?? "/account")
}

function showLogin() {
  byId("account-title").textContent = "Log in or create an account"
  byId("account-login").hidden = false
  onSubmit("login-form", "login-error", async (form) => {
    await logIn(formValue(form, "email"), String(new FormData(form).get("password") ?? ""))
    loggedIn()
  })
  onSubmit("register-form", "register-error", async (form) => {
    const registration = {
      email: formValue(form, "email"),
      password: String(new FormData(form).get("password") ?? ""),
      first_name: formValue(form, "first_name"),
      last_name: formValue(form, "last_name"),
    }
    await register(registration)
    loggedIn()
  })
}

async function showAccount(customer: HttpTypes.StoreCustomer) {
  byId("account-title").textContent = "Your account"
  byId("account-login").hidden = true
  byId("account-name").textContent = [customer.last_name, customer.first_name].filter(Boolean).join(" ") || customer.email
  byId("account-email").textContent = customer.email
  byId("account").hidden = false
  byId("log-out").addEventListener("click", () => {
    void logOut().then(() => location.assign("/account"))
  })
  const container = byId("account-sections")
  const panels = ACCOUNT_SECTIONS.map((section) => {
    const body = el("div", { id: `account-${section.id}-body` }, el("p", { class: "status" }, "Loading…"))
    container.append(el("section", { class: "panel", id: `account-${section.id}`, "aria-labelledby": `account-${section.id}-title` }, el("h2", { id: `account-${section.id}-title` }, section.title), body))
    return { section, body }
  })
  await Promise.all(
    panels.map(({ section, body }) =>
      section.render(body, customer).catch((error: unknown) => {
        console.error(error)
        body.replaceChildren(el("p", { class: "error", role: "alert" }, storeErrorMessage(error)))
      })
    )
  )
}

runPage("account-status", async () => {
  const [customer, cart] = await Promise.all([loggedInCustomer(), currentCart()])
  showCartCount(cart)
  byId("account-status").hidden = true
  if (customer) {
    await showAccount(customer)
  } else {
    showLogin()
  }
})

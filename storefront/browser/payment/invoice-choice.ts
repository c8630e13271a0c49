import { type InvoiceChoice, InvoiceChoiceError, invoiceChoiceOf, type InvoiceInfo, type InvoiceIssue, invoiceInfoFromChoice, validateInvoiceInfo } from "medusa-payment-tw-storefront"
import { el } from "../element"
import { sdk } from "../medusa"

/**
 * The e-invoice step of a hosted payment: a cloud invoice to the member
 * carrier, a mobile barcode or a citizen digital certificate, or a company
 * invoice with a tax id. Checked here by the storefront kit with the
 * provider's rules, so a typo is refused in the page, naming the field,
 * before any payment is started. A logged-in customer's choice is kept in
 * their metadata.
 */

const KINDS = [
  { value: "member", label: "Cloud invoice to my member account", hint: "Kept in your account at the payment service; winning invoices are notified by email." },
  { value: "barcode", label: "Mobile barcode", hint: "The carrier barcode of your tax app: '/' and 7 characters." },
  { value: "certificate", label: "Citizen digital certificate", hint: "2 letters and 14 digits, as printed on the card." },
  { value: "company", label: "Company invoice", hint: "With your company's 8-digit tax id (unified business number)." },
] as const
type Kind = (typeof KINDS)[number]["value"]

/** Where a logged-in customer's choice is kept. */
const METADATA_KEY = "tw_invoice"

const input = (id: string) => document.getElementById(id) as HTMLInputElement
const field = (id: string, label: string, attributes: Record<string, string>) =>
  el("div", {}, el("label", { for: id }, label), el("input", { id, name: id, autocomplete: "off", ...attributes }))

export function renderInvoiceChoice(container: HTMLElement) {
  const choices = KINDS.map((kind, index) =>
    el(
      "div",
      { class: "choice" },
      el("input", { type: "radio", name: "invoice_kind", id: `invoice-kind-${kind.value}`, value: kind.value, checked: index === 0 }),
      " ",
      el("label", { for: `invoice-kind-${kind.value}` }, kind.label),
      el("span", { class: "hint" }, kind.hint)
    )
  )
  const fieldset = el(
    "fieldset",
    { id: "invoice-choice", "data-testid": "invoice-choice" },
    el("legend", {}, "E-invoice"),
    ...choices,
    el("div", { class: "option-fields", id: "invoice-barcode-fields", hidden: true }, field("invoice-barcode", "Mobile barcode", { placeholder: "/ABC1234", maxlength: "8", autocapitalize: "characters" })),
    el("div", { class: "option-fields", id: "invoice-certificate-fields", hidden: true }, field("invoice-certificate", "Citizen digital certificate number", { placeholder: "AB12345678901234", maxlength: "16", autocapitalize: "characters" })),
    el(
      "div",
      { class: "option-fields", id: "invoice-company-fields", hidden: true },
      field("invoice-tax-id", "Company tax id", { inputmode: "numeric", placeholder: "12345678", maxlength: "8" }),
      field("invoice-company-name", "Company name (optional)", { maxlength: "60" })
    )
  )
  fieldset.addEventListener("change", showKindFields)
  container.append(fieldset)
  void prefillRemembered()
}

function chosenKind(): Kind {
  return (document.querySelector<HTMLInputElement>('input[name="invoice_kind"]:checked')?.value ?? "member") as Kind
}

function showKindFields() {
  const kind = chosenKind()
  for (const name of ["barcode", "certificate", "company"]) {
    document.getElementById(`invoice-${name}-fields`)!.hidden = kind !== name
  }
}

/** The choice the form holds, as the shopper typed it (the kit trims it and upper-cases carriers). */
function formChoice(): InvoiceChoice {
  switch (chosenKind()) {
    case "barcode":
      return { kind: "mobile_barcode", barcode: input("invoice-barcode").value }
    case "certificate":
      return { kind: "citizen_certificate", certificate: input("invoice-certificate").value }
    case "company":
      return { kind: "company", taxId: input("invoice-tax-id").value, companyName: input("invoice-company-name").value }
    default:
      return { kind: "member" }
  }
}

/** The form's field for an issue, and what the shopper reads about it, naming the field. */
function refusalOf(issue: InvoiceIssue): { id: string; message: string } | undefined {
  switch (issue.code) {
    case "mobile_barcode_invalid":
    case "carrier_id_too_long":
      return chosenKind() === "barcode"
        ? { id: "invoice-barcode", message: "Mobile barcode: enter '/' followed by 7 characters (0-9, A-Z, '.', '+' or '-'), as your tax app shows it." }
        : { id: "invoice-certificate", message: "Citizen digital certificate number: enter 2 letters followed by 14 digits." }
    case "citizen_certificate_invalid":
      return { id: "invoice-certificate", message: "Citizen digital certificate number: enter 2 letters followed by 14 digits." }
    case "tax_id_required":
    case "tax_id_invalid":
    case "tax_id_too_long":
      return { id: "invoice-tax-id", message: "Company tax id: enter the 8 digits of the unified business number." }
    case "tax_id_check_digit":
      return { id: "invoice-tax-id", message: "Company tax id: this number's check digit is wrong; check each digit again." }
    case "company_name_too_long":
      return { id: "invoice-company-name", message: "Company name: at most 60 characters." }
    default:
      return undefined
  }
}

/** The chosen invoice, checked; a refusal names the field, which is marked and focused. */
export function readInvoiceChoice(): InvoiceInfo {
  for (const element of document.querySelectorAll("#invoice-choice input[aria-invalid]")) {
    element.removeAttribute("aria-invalid")
  }
  try {
    return invoiceInfoFromChoice(formChoice())
  } catch (error) {
    const refusal = error instanceof InvoiceChoiceError && error.issues[0] ? refusalOf(error.issues[0]) : undefined
    if (!refusal) {
      throw error
    }
    const element = input(refusal.id)
    element.setAttribute("aria-invalid", "true")
    element.focus()
    throw new Error(refusal.message, { cause: error })
  }
}

/** Only a logged-in customer has a token; a guest is not asked (that would be a needless 401). */
async function loggedIn(): Promise<boolean> {
  return Boolean(await sdk.client.getToken().catch(() => undefined))
}

/** A logged-in customer's last choice, when the provider still takes it (a saved card's one-step payment uses it); undefined for a guest or none. */
export async function rememberedInvoiceChoice(): Promise<InvoiceInfo | undefined> {
  if (!(await loggedIn())) {
    return undefined
  }
  const { customer } = await sdk.store.customer.retrieve().catch(() => ({ customer: undefined }))
  const saved = validateInvoiceInfo(customer?.metadata?.[METADATA_KEY])
  return saved.success ? saved.invoice : undefined
}

async function prefillRemembered() {
  const choice = invoiceChoiceOf(await rememberedInvoiceChoice())
  if (!choice) {
    return
  }
  const kind: Kind = choice.kind === "company" ? "company" : choice.kind === "mobile_barcode" ? "barcode" : choice.kind === "citizen_certificate" ? "certificate" : "member"
  input(`invoice-kind-${kind}`).checked = true
  input("invoice-barcode").value = choice.kind === "mobile_barcode" ? choice.barcode : ""
  input("invoice-certificate").value = choice.kind === "citizen_certificate" ? choice.certificate : ""
  input("invoice-tax-id").value = choice.kind === "company" ? choice.taxId : ""
  input("invoice-company-name").value = choice.kind === "company" ? (choice.companyName ?? "") : ""
  showKindFields()
}

/** Keeps a logged-in customer's choice for their next checkout; a guest's is not kept. */
export async function rememberInvoiceChoice(invoice: InvoiceInfo) {
  if (await loggedIn()) {
    await sdk.store.customer.update({ metadata: { [METADATA_KEY]: invoice } }).catch(() => undefined)
  }
}

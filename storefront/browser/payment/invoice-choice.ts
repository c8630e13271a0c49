import { isCitizenCertificate, isMobileBarcode } from "../../../src/lib/hosted/invoice-carriers"
import { isValidTaxId } from "../../../src/lib/hosted/tax-id"
import { el } from "../element"
import { sdk } from "../medusa"

/**
 * The e-invoice step of a hosted payment: a cloud invoice to the member
 * carrier, a mobile barcode or a citizen digital certificate, or a company
 * invoice with a tax id. Checked here with the provider's own rules, so a
 * typo is refused in the page, naming the field, before any payment is
 * started. A logged-in customer's choice is kept in their metadata.
 */

/** The provider's `invoice` session data (spec `invoiceInfo`). */
export interface InvoiceInfo {
  invoiceType: "cloud" | "company"
  carrierType?: "" | "3J0002" | "CQ0001"
  carrierId?: string
  buyerIdentifier?: string
  buyerName?: string
}

const KINDS = [
  { value: "member", label: "Cloud invoice to my member account", hint: "Kept in your account at the payment service; winning invoices are notified by email." },
  { value: "barcode", label: "Mobile barcode", hint: "The carrier barcode of your tax app: '/' and 7 characters." },
  { value: "certificate", label: "Citizen digital certificate", hint: "2 letters and 14 digits, as printed on the card." },
  { value: "company", label: "Company invoice", hint: "With your company's 8-digit tax id (unified business number)." },
] as const
type Kind = (typeof KINDS)[number]["value"]

/** Where a logged-in customer's choice is kept. */
const METADATA_KEY = "tw_invoice"

/** A refusal that names the field, for the checkout's error line. */
export class InvoiceFieldError extends Error {}

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

/** Marks the field, moves the shopper to it, and throws the message naming it. */
function refuse(id: string, message: string): never {
  const element = input(id)
  element.setAttribute("aria-invalid", "true")
  element.focus()
  throw new InvoiceFieldError(message)
}

/** The chosen invoice, checked; throws `InvoiceFieldError` naming the field when it cannot be accepted. */
export function readInvoiceChoice(): InvoiceInfo {
  for (const element of document.querySelectorAll("#invoice-choice input[aria-invalid]")) {
    element.removeAttribute("aria-invalid")
  }
  switch (chosenKind()) {
    case "barcode": {
      const value = input("invoice-barcode").value.trim().toUpperCase()
      if (!isMobileBarcode(value)) {
        refuse("invoice-barcode", "Mobile barcode: enter '/' followed by 7 characters (0-9, A-Z, '.', '+' or '-'), as your tax app shows it.")
      }
      return { invoiceType: "cloud", carrierType: "3J0002", carrierId: value }
    }
    case "certificate": {
      const value = input("invoice-certificate").value.trim().toUpperCase()
      if (!isCitizenCertificate(value)) {
        refuse("invoice-certificate", "Citizen digital certificate number: enter 2 letters followed by 14 digits.")
      }
      return { invoiceType: "cloud", carrierType: "CQ0001", carrierId: value }
    }
    case "company": {
      const taxId = input("invoice-tax-id").value.trim()
      if (!/^\d{8}$/.test(taxId)) {
        refuse("invoice-tax-id", "Company tax id: enter the 8 digits of the unified business number.")
      }
      if (!isValidTaxId(taxId)) {
        refuse("invoice-tax-id", "Company tax id: this number's check digit is wrong; check each digit again.")
      }
      const name = input("invoice-company-name").value.trim()
      return { invoiceType: "company", buyerIdentifier: taxId, ...(name ? { buyerName: name } : {}) }
    }
    default:
      return { invoiceType: "cloud", carrierType: "" }
  }
}

/** Only a logged-in customer has a token; a guest is not asked (that would be a needless 401). */
async function loggedIn(): Promise<boolean> {
  return Boolean(await sdk.client.getToken().catch(() => undefined))
}

async function prefillRemembered() {
  if (!(await loggedIn())) {
    return
  }
  const { customer } = await sdk.store.customer.retrieve().catch(() => ({ customer: undefined }))
  const saved = customer?.metadata?.[METADATA_KEY] as InvoiceInfo | undefined
  if (!saved?.invoiceType) {
    return
  }
  const kind: Kind = saved.invoiceType === "company" ? "company" : saved.carrierType === "3J0002" ? "barcode" : saved.carrierType === "CQ0001" ? "certificate" : "member"
  input(`invoice-kind-${kind}`).checked = true
  input("invoice-barcode").value = kind === "barcode" ? (saved.carrierId ?? "") : ""
  input("invoice-certificate").value = kind === "certificate" ? (saved.carrierId ?? "") : ""
  input("invoice-tax-id").value = saved.buyerIdentifier ?? ""
  input("invoice-company-name").value = saved.buyerName ?? ""
  showKindFields()
}

/** A logged-in customer's last choice (a saved card's one-step payment uses it); undefined for a guest or none. */
export async function rememberedInvoiceChoice(): Promise<InvoiceInfo | undefined> {
  if (!(await loggedIn())) {
    return undefined
  }
  const { customer } = await sdk.store.customer.retrieve().catch(() => ({ customer: undefined }))
  const saved = customer?.metadata?.[METADATA_KEY] as InvoiceInfo | undefined
  return saved?.invoiceType ? saved : undefined
}

/** Keeps a logged-in customer's choice for their next checkout; a guest's is not kept. */
export async function rememberInvoiceChoice(invoice: InvoiceInfo) {
  if (await loggedIn()) {
    await sdk.store.customer.update({ metadata: { [METADATA_KEY]: invoice } }).catch(() => undefined)
  }
}

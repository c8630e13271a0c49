"use client"
import { type MutableRefObject, useCallback, useId, useRef, useState } from "react"
import { type InvoiceChoice as Choice, InvoiceChoiceError, invoiceInfoFromChoice } from "../core/invoice-choice.js"
import type { InvoiceField, InvoiceInfo, InvoiceIssue } from "../core/invoice-info.js"
import type { KitTextKey } from "../messages/index.js"
import { useTwPayment } from "./context.js"

type Kind = Choice["kind"]
const KINDS: ReadonlyArray<{ kind: Kind; label: KitTextKey }> = [
  { kind: "member", label: "invoice_kind_member" },
  { kind: "mobile_barcode", label: "invoice_kind_mobile_barcode" },
  { kind: "citizen_certificate", label: "invoice_kind_citizen_certificate" },
  { kind: "company", label: "invoice_kind_company" },
]

/** The form's inputs, as the shopper types them (every kind's, so switching kinds keeps what was typed). */
export interface InvoiceDraft {
  kind: Kind
  barcode: string
  certificate: string
  taxId: string
  companyName: string
  email: string
}

/** The inputs of the form; an issue of the provider's rules lands on one of them. */
type Input = "barcode" | "certificate" | "taxId" | "companyName" | "email"

function inputOf(field: InvoiceField | undefined, kind: Kind): Input | undefined {
  switch (field) {
    case "carrierId":
      return kind === "citizen_certificate" ? "certificate" : "barcode"
    case "buyerIdentifier":
      return "taxId"
    case "buyerName":
      return "companyName"
    case "email":
      return "email"
    default:
      return undefined
  }
}

/** The catalogue's text for an issue on an input (the store's own codes where it has them). */
const ISSUE_TEXT: Record<Input | "choice", KitTextKey | "invoice_carrier_invalid" | "invoice_tax_id_invalid" | "invoice_invalid"> = {
  barcode: "invoice_carrier_invalid",
  certificate: "invoice_carrier_invalid",
  taxId: "invoice_tax_id_invalid",
  companyName: "invoice_company_name_invalid",
  email: "invoice_email_invalid",
  choice: "invoice_invalid",
}

const choiceOf = (draft: InvoiceDraft): Choice => {
  const email = draft.email ? { email: draft.email } : {}
  switch (draft.kind) {
    case "mobile_barcode":
      return { kind: "mobile_barcode", barcode: draft.barcode, ...email }
    case "citizen_certificate":
      return { kind: "citizen_certificate", certificate: draft.certificate, ...email }
    case "company":
      return { kind: "company", taxId: draft.taxId, companyName: draft.companyName, ...email }
    default:
      return { kind: "member", ...email }
  }
}

export interface InvoiceChoiceState {
  draft: InvoiceDraft
  setDraft(update: Partial<InvoiceDraft>): void
  /** The issues of the last check, by input (`choice`: the choice as a whole). */
  issues: Partial<Record<Input | "choice", InvoiceIssue>>
  /**
   * Checks the choice with the core's rules (`invoiceInfoFromChoice`, i.e. `validateInvoiceInfo`):
   * the `invoice` to send, or `false` after showing each field's error and moving focus to the first.
   */
  check(): InvoiceInfo | false
  /** @internal the inputs, for focus. */
  inputs: MutableRefObject<Partial<Record<Input, HTMLInputElement | null>>>
}

/** The state of an `<InvoiceChoice>`: pass it to the component, and its `check` to a pay button's `invoice`. */
export function useInvoiceChoice(initial: Partial<InvoiceDraft> = {}): InvoiceChoiceState {
  const [draft, setDraftState] = useState<InvoiceDraft>({ kind: "member", barcode: "", certificate: "", taxId: "", companyName: "", email: "", ...initial })
  const [issues, setIssues] = useState<InvoiceChoiceState["issues"]>({})
  const inputs = useRef<Partial<Record<Input, HTMLInputElement | null>>>({})
  const draftRef = useRef(draft)
  draftRef.current = draft

  const setDraft = useCallback((update: Partial<InvoiceDraft>) => {
    setDraftState((current) => ({ ...current, ...update }))
    // An edited input's error goes; the next check says again what is still wrong.
    setIssues((current) => {
      const next = { ...current }
      for (const key of Object.keys(update)) {
        delete next[key === "kind" ? "choice" : (key as Input)]
      }
      return update.kind ? {} : next
    })
  }, [])

  const check = useCallback((): InvoiceInfo | false => {
    const current = draftRef.current
    try {
      const invoice = invoiceInfoFromChoice(choiceOf(current))
      setIssues({})
      return invoice
    } catch (error) {
      if (!(error instanceof InvoiceChoiceError)) {
        throw error
      }
      const found: InvoiceChoiceState["issues"] = {}
      for (const issue of error.issues) {
        const input = inputOf(issue.field, current.kind) ?? "choice"
        found[input] ??= issue
      }
      setIssues(found)
      const first = (["barcode", "certificate", "taxId", "companyName", "email"] as const).find((input) => found[input])
      const element = first ? inputs.current[first] : undefined
      element?.focus()
      return false
    }
  }, [])

  return { draft, setDraft, issues, check, inputs }
}

export interface InvoiceChoiceProps {
  state: InvoiceChoiceState
  className?: string
  /** Shows the optional email for the invoice's notice; shown by default. */
  withEmail?: boolean
}

/**
 * The e-invoice choice of a hosted-page payment, a saved card or a
 * subscription: member carrier, mobile barcode, citizen digital certificate,
 * or a company invoice with its tax id. Each input has its label; a field the
 * check refuses is marked `aria-invalid`, described by its error (announced).
 */
export function InvoiceChoice({ state, className, withEmail = true }: InvoiceChoiceProps) {
  const { text, classNames } = useTwPayment()
  const id = useId()
  const { draft, setDraft, issues, inputs } = state

  const field = (input: Input, label: KitTextKey, extra: { autoComplete?: string; inputMode?: "numeric" | "email" | "text"; type?: string } = {}) => {
    const issue = issues[input]
    const inputId = `${id}-${input}`
    const errorId = `${inputId}-error`
    return (
      <div data-field={input} className={classNames.field}>
        <label htmlFor={inputId}>{text(label)}</label>
        <input
          id={inputId}
          name={input}
          type={extra.type ?? "text"}
          className={classNames.input}
          value={draft[input]}
          autoComplete={extra.autoComplete ?? "off"}
          inputMode={extra.inputMode}
          aria-invalid={issue ? true : undefined}
          aria-describedby={issue ? errorId : undefined}
          ref={(element) => {
            inputs.current[input] = element
          }}
          onChange={(event) => setDraft({ [input]: event.target.value })}
        />
        {issue ? (
          <p id={errorId} role="alert" className={classNames.error} data-testid={`invoice-error-${input}`}>
            {text(ISSUE_TEXT[input])}
          </p>
        ) : null}
      </div>
    )
  }

  return (
    <fieldset className={className} data-testid="invoice-choice">
      <legend className={classNames.title}>{text("invoice_legend")}</legend>
      {KINDS.map(({ kind, label }) => (
        <div key={kind} className={classNames.option}>
          <input
            type="radio"
            className={classNames.radio}
            id={`${id}-kind-${kind}`}
            name={`${id}-kind`}
            value={kind}
            checked={draft.kind === kind}
            onChange={() => setDraft({ kind })}
          />
          <label htmlFor={`${id}-kind-${kind}`} className={classNames.optionLabel}>{text(label)}</label>
        </div>
      ))}
      {draft.kind === "mobile_barcode" ? field("barcode", "invoice_barcode_label") : null}
      {draft.kind === "citizen_certificate" ? field("certificate", "invoice_certificate_label") : null}
      {draft.kind === "company" ? (
        <>
          {field("taxId", "invoice_tax_id_label", { inputMode: "numeric" })}
          {field("companyName", "invoice_company_name_label", { autoComplete: "organization" })}
        </>
      ) : null}
      {withEmail ? field("email", "invoice_email_label", { type: "email", inputMode: "email", autoComplete: "email" }) : null}
      {issues.choice ? (
        <p role="alert" className={classNames.error} data-testid="invoice-error-choice">
          {text(ISSUE_TEXT.choice)}
        </p>
      ) : null}
    </fieldset>
  )
}

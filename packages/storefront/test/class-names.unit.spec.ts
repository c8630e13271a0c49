import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { createElement, type ReactElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import type { SubscriptionPlan } from "../src/core/subscription-plans.js"
import {
  ErrorMessage,
  HostedPayButton,
  InvoiceChoice,
  type InvoiceChoiceState,
  PlanPicker,
  SavedCardsSection,
  SubscriptionsSection,
  type TwPaymentClassNames,
  TwPaymentProvider,
  useInvoiceChoice,
} from "../src/react/index.js"

// Each part's class, told apart from the others, as a storefront's design system would give them.
const HOST: Required<TwPaymentClassNames> = {
  title: "host-title",
  option: "host-option",
  radio: "host-radio",
  optionLabel: "host-option-label",
  button: "host-button",
  secondaryButton: "host-secondary",
  item: "host-item",
  field: "host-field",
  input: "host-input",
  error: "host-error",
}

const sdk = new Medusa({ baseUrl: "http://localhost:9000", publishableKey: "pk_test" })
const plan: SubscriptionPlan = {
  id: "twplan_1",
  variant_id: "variant_1",
  title: "Monthly tea box",
  kind: "monthly",
  interval_months: 1,
  periods: 12,
  first_charge_delay_days: 0,
  active: true,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
}
const cart = { id: "cart_1", region_id: "reg_1", currency_code: "twd" } as HttpTypes.StoreCart

/** The first render (the server's, before any effect), under a provider with the host's classes or none. */
const render = (element: ReactElement, classNames?: TwPaymentClassNames) =>
  renderToStaticMarkup(createElement(TwPaymentProvider, { sdk, locale: "en", ...(classNames ? { classNames } : {}) }, element))

/** The tags of `markup` named `tag`, each with its attributes, and its class ("" without one). */
const tagsOf = (markup: string, tag: string) =>
  [...markup.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "g"))].map(([, attributes]) => ({ attributes: attributes!, className: /\bclass="([^"]*)"/.exec(attributes!)?.[1] ?? "" }))
const classesOf = (markup: string, tag: string) => tagsOf(markup, tag).map((found) => found.className)

function Invoice() {
  return createElement(InvoiceChoice, { state: useInvoiceChoice() })
}

/** A company invoice whose check refused the tax id and the choice as a whole: every text field and error shows. */
const refusedCompany: InvoiceChoiceState = {
  draft: { kind: "company", barcode: "", certificate: "", taxId: "1234", companyName: "Tea Co.", email: "" },
  setDraft: () => {},
  issues: {
    taxId: { field: "buyerIdentifier", code: "tax_id_invalid", message: "tax id" },
    choice: { field: undefined, code: "invoice_type_invalid", message: "choice" },
  },
  check: () => false,
  inputs: { current: {} },
}
const textInputsOf = (markup: string) => tagsOf(markup, "input").filter((input) => !/\btype="radio"/.test(input.attributes))

describe("<TwPaymentProvider classNames>", () => {
  it("gives a choice's title, each option, its radio and its label the host's classes", () => {
    for (const element of [createElement(PlanPicker, { of: { productId: "prod_1" }, plans: [plan], value: plan.id, onChange: () => {} }), createElement(Invoice)]) {
      const markup = render(element, HOST)
      expect(classesOf(markup, "legend")).toEqual([HOST.title])
      const radios = tagsOf(markup, "input").filter((input) => /\btype="radio"/.test(input.attributes))
      expect(radios.length).toBeGreaterThan(0)
      expect(radios.map((radio) => radio.className)).toEqual(radios.map(() => HOST.radio))
      // Each radio sits in an option and has its label (`for` its id); a text field's label is not an option's.
      expect(classesOf(markup, "div").filter((found) => found === HOST.option)).toHaveLength(radios.length)
      const radioIds = radios.map((radio) => /\bid="([^"]*)"/.exec(radio.attributes)?.[1])
      const labels = tagsOf(markup, "label").filter((label) => radioIds.includes(/\bfor="([^"]*)"/.exec(label.attributes)?.[1]))
      expect(labels.map((label) => label.className)).toEqual(radios.map(() => HOST.optionLabel))
    }
  })

  it("gives the components' actions the button class and the sections' headings the title class", () => {
    expect(classesOf(render(createElement(HostedPayButton, { cart }), HOST), "button")).toEqual([HOST.button])
    const saved = render(createElement(SavedCardsSection), HOST)
    expect(classesOf(saved, "h2")).toEqual([HOST.title])
    expect(classesOf(saved, "button")).toEqual([HOST.button])
    expect(classesOf(render(createElement(SubscriptionsSection), HOST), "h2")).toEqual([HOST.title])
  })

  it("gives the e-invoice's text fields their wrapper, input and inline error classes", () => {
    const markup = render(createElement(InvoiceChoice, { state: refusedCompany }), HOST)
    // tax id, company name, email: each in its field, its input with the host's class, its label not an option's.
    const fields = tagsOf(markup, "div").filter((found) => /\bdata-field="/.test(found.attributes))
    expect(fields.map((found) => /\bdata-field="([^"]*)"/.exec(found.attributes)?.[1])).toEqual(["taxId", "companyName", "email"])
    expect(fields.map((found) => found.className)).toEqual(fields.map(() => HOST.field))
    const inputs = textInputsOf(markup)
    expect(inputs.map((input) => input.className)).toEqual(inputs.map(() => HOST.input))
    expect(inputs).toHaveLength(3)
    // The refused tax id's error and the choice's, both announced.
    const errors = tagsOf(markup, "p").filter((found) => /\brole="alert"/.test(found.attributes))
    expect(errors.map((found) => /\bdata-testid="([^"]*)"/.exec(found.attributes)?.[1])).toEqual(["invoice-error-taxId", "invoice-error-choice"])
    expect(errors.map((found) => found.className)).toEqual([HOST.error, HOST.error])
  })

  it("gives a component's ErrorMessage the error class, beside its own className", () => {
    expect(classesOf(render(createElement(ErrorMessage, { error: new Error("down") }), HOST), "p")).toEqual([HOST.error])
    expect(classesOf(render(createElement(ErrorMessage, { error: new Error("down"), className: "mt-2" }), HOST), "p")).toEqual([`${HOST.error} mt-2`])
    expect(classesOf(render(createElement(ErrorMessage, { error: new Error("down"), className: "mt-2" })), "p")).toEqual(["mt-2"])
  })

  it("leaves every part without a class when the host gives none (the optional stylesheet's case)", () => {
    const markup = [
      render(createElement(PlanPicker, { of: { productId: "prod_1" }, plans: [plan], value: plan.id, onChange: () => {} })),
      render(createElement(Invoice)),
      render(createElement(InvoiceChoice, { state: refusedCompany })),
      render(createElement(ErrorMessage, { error: new Error("down") })),
      render(createElement(HostedPayButton, { cart })),
      render(createElement(SavedCardsSection)),
    ].join("")
    expect(markup).not.toMatch(/class="host-/)
    expect(markup).toMatch(/data-testid="invoice-error-taxId"/)
    expect(markup).toMatch(/data-testid="tw-error"/)
    for (const tag of ["legend", "input", "label", "button", "h2", "div", "p"]) {
      expect(classesOf(markup, tag).filter(Boolean)).toEqual([])
    }
  })
})

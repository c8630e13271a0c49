import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { createElement, type ReactElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import type { SubscriptionPlan } from "../src/core/subscription-plans.js"
import {
  HostedPayButton,
  InvoiceChoice,
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

  it("leaves every part without a class when the host gives none (the optional stylesheet's case)", () => {
    const markup = [
      render(createElement(PlanPicker, { of: { productId: "prod_1" }, plans: [plan], value: plan.id, onChange: () => {} })),
      render(createElement(Invoice)),
      render(createElement(HostedPayButton, { cart })),
      render(createElement(SavedCardsSection)),
    ].join("")
    expect(markup).not.toMatch(/class="host-/)
    for (const tag of ["legend", "input", "label", "button", "h2"]) {
      expect(classesOf(markup, tag).filter(Boolean)).toEqual([])
    }
  })
})

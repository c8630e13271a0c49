/**
 * The storefront kit's React components on one test page for the browser spec
 * integration-tests/browser/kit-components.spec.ts (bundled by
 * integration-tests/browser/kit-page.ts with esbuild, mounted with react-dom/client), against the
 * demo store through the test's server. The path names the language and the
 * piece: /kit/{en|zh-TW}/{checkout|card|return|account|saved-card|subscribe|step|order|product}.
 */
import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { StrictMode, useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import { ORDER_PAYMENT_FIELDS, type OrderWithPayment } from "../../src/index.js"
import {
  CheckoutPayment,
  EmbeddedCardElement,
  HostedPayButton,
  InvoiceChoice,
  OrderPaymentStatus,
  PaymentOptions,
  type PaymentOption,
  PaymentReturnView,
  PlanPicker,
  ProductSubscribe,
  SavedCardPicker,
  SavedCardsSection,
  SubscribeButton,
  SubscriptionsSection,
  TwPaymentProvider,
  useInvoiceChoice,
} from "../../src/react/index.js"

const CART_ID_KEY = "kit_test_cart_id"
const config = JSON.parse(document.getElementById("kit-config")!.textContent!) as { publishableKey: string }
const sdk = new Medusa({ baseUrl: window.location.origin, publishableKey: config.publishableKey })
const [, , locale = "en", piece = "checkout"] = window.location.pathname.split("/")
document.documentElement.lang = locale

const ready = () => document.body.setAttribute("data-ready", "")
/** Marks the page ready once `value` (what the piece loads first) is there. */
const useReadyWhen = (value: unknown) =>
  useEffect(() => {
    if (value) {
      ready()
    }
  }, [value])

/**
 * A cart of one `title` with the demo shopper's address and home delivery: what a checkout has before its
 * payment step (the logged-in customer's, when the sdk holds a token).
 */
async function checkoutCart(title = "Bubble Tea Kit", customer = false): Promise<HttpTypes.StoreCart> {
  const { regions } = await sdk.store.region.list({ fields: "id,*countries" })
  const region = regions.find((r) => r.countries?.some((c) => c.iso_2 === "tw")) ?? regions[0]!
  const { products } = await sdk.store.product.list({ region_id: region.id, fields: "id,title,*variants" })
  const product = products.find((p) => p.title === title) ?? products[0]!
  const address = { first_name: "Mei", last_name: "Lin", phone: "0912345678", postal_code: "110", city: "Taipei City", address_1: "No. 7, Section 5, Xinyi Road", country_code: "tw" }
  // A customer's cart takes the customer's own email.
  let { cart } = await sdk.store.cart.create({ region_id: region.id, ...(customer ? {} : { email: "mei.lin@example.test" }), shipping_address: address, billing_address: address })
  ;({ cart } = await sdk.store.cart.createLineItem(cart.id, { variant_id: product.variants![0]!.id, quantity: 1 }))
  const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cart.id })
  const delivery = shipping_options.find((o) => /Home delivery/.test(o.name)) ?? shipping_options[0]!
  ;({ cart } = await sdk.store.cart.addShippingMethod(cart.id, { option_id: delivery.id }, { fields: "*payment_collection,+total" }))
  localStorage.setItem(CART_ID_KEY, cart.id)
  return cart
}

function Checkout() {
  const [cart, setCart] = useState<HttpTypes.StoreCart>()
  const [option, setOption] = useState<PaymentOption>()
  const invoice = useInvoiceChoice()
  useEffect(() => {
    checkoutCart().then(setCart, (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(cart)
  if (!cart) {
    return null
  }
  return (
    <main>
      <PaymentOptions cart={cart} value={option} onChange={setOption} className="options" />
      <InvoiceChoice state={invoice} className="invoice" />
      <HostedPayButton cart={cart} methods={option?.kind === "hosted" ? [option.method] : ["card"]} invoice={invoice.check} returnPath={`/kit/${locale}/return`} />
    </main>
  )
}

/** The card form of the embedded-card provider, for the same kind of cart. */
function Card() {
  const [cart, setCart] = useState<HttpTypes.StoreCart>()
  useEffect(() => {
    checkoutCart().then(setCart, (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(cart)
  return cart ? <EmbeddedCardElement cart={cart} returnPath={`/kit/${locale}/return`} /> : null
}

function Return() {
  useEffect(ready, [])
  // The card SDK's return address names the intent; the hosted page's names none.
  const intent = new URLSearchParams(window.location.search).get("payment_intent")
  return (
    <PaymentReturnView
      cartId={localStorage.getItem(CART_ID_KEY)}
      {...(intent ? { paymentIntentId: intent } : {})}
      checkoutHref={`/kit/${locale}/checkout`}
      onResult={(result) => result.kind === "order" && localStorage.removeItem(CART_ID_KEY)}
    />
  )
}

function Account() {
  useEffect(ready, [])
  return (
    <main>
      <SavedCardsSection returnPath={`/kit/${locale}/account`} pollMs={500} />
      <SubscriptionsSection />
    </main>
  )
}

/** The logged-in customer's saved cards at checkout: the picker pays with the chosen one without leaving the page. */
function SavedCardCheckout() {
  const [cart, setCart] = useState<HttpTypes.StoreCart>()
  const [customerId, setCustomerId] = useState<string>()
  const [result, setResult] = useState<string>()
  useEffect(() => {
    Promise.all([checkoutCart("Bubble Tea Kit", true), sdk.store.customer.retrieve()]).then(([made, { customer }]) => {
      setCart(made)
      setCustomerId(customer.id)
    }, (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(cart)
  if (!cart || !customerId) {
    return null
  }
  return (
    <main>
      <SavedCardPicker cart={cart} customerId={customerId} onCompleted={(completion) => setResult(completion.kind === "order" ? `order ${completion.order.display_id}` : completion.kind)} />
      {result ? <p data-testid="saved-card-result">{result}</p> : null}
    </main>
  )
}

/** A subscription checkout: the plans of the monthly box, and the button that sends the shopper to the service's recurring page. */
function Subscribe() {
  const [cart, setCart] = useState<HttpTypes.StoreCart>()
  const [planId, setPlanId] = useState<string>()
  useEffect(() => {
    checkoutCart("Tea of the Month Box", true).then(setCart, (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(cart)
  const variantId = cart?.items?.[0]?.variant_id
  if (!cart || !variantId) {
    return null
  }
  return (
    <main>
      <PlanPicker of={{ variantId }} value={planId} onChange={(plan) => setPlanId(plan.id)} />
      <SubscribeButton cartId={cart.id} planId={planId} returnPath={`/kit/${locale}/return`} />
    </main>
  )
}

/** The whole payment step in one component, as the official starter's guide uses it. */
function Step() {
  const [cart, setCart] = useState<HttpTypes.StoreCart>()
  useEffect(() => {
    checkoutCart().then(setCart, (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(cart)
  return cart ? <CheckoutPayment cart={cart} onOrder={() => undefined} returnPath={`/kit/${locale}/return`} /> : null
}

/** The payment block of an order's confirmation: /kit/{locale}/order?id=order_… */
function Order() {
  const [order, setOrder] = useState<OrderWithPayment>()
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("id") ?? ""
    sdk.store.order.retrieve(id, { fields: ORDER_PAYMENT_FIELDS }).then(({ order: found }) => setOrder(found as OrderWithPayment), (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(order)
  return order ? <OrderPaymentStatus order={order} /> : null
}

/** A product page's subscription offer for the monthly box; the plan chosen is shown instead of a server action. */
function Product() {
  const [productId, setProductId] = useState<string>()
  const [chosen, setChosen] = useState<string>()
  useEffect(() => {
    sdk.store.product.list({ handle: "tea-of-the-month", fields: "id" }).then(({ products }) => setProductId(products[0]!.id), (error: unknown) => console.error(error))
  }, [])
  useReadyWhen(productId)
  return productId ? (
    <main>
      <ProductSubscribe productId={productId} onSubscribe={(plan) => setChosen(plan.title)} />
      {chosen ? <p data-testid="chosen-plan">{chosen}</p> : null}
    </main>
  ) : null
}

const PIECES: Record<string, () => JSX.Element | null> = { checkout: Checkout, card: Card, return: Return, account: Account, "saved-card": SavedCardCheckout, subscribe: Subscribe, step: Step, order: Order, product: Product }
const Piece = PIECES[piece] ?? Checkout

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <TwPaymentProvider sdk={sdk} locale={locale}>
      <Piece />
    </TwPaymentProvider>
  </StrictMode>
)

import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./medusa"
import { taiwanRegion } from "./region"
import { storeErrorStatus } from "./store-error"

/** The shopper's cart id lives in this browser only (a guest checkout). */
const CART_ID_KEY = "medusa_payment_tw_demo_cart_id"

/** Cart fields every page here needs: lines with their product, totals, and the payment collection. */
const CART_FIELDS =
  "*items,*items.variant,*items.product,*shipping_methods,*shipping_address,*payment_collection,*payment_collection.payment_sessions," +
  "+item_subtotal,+shipping_total,+tax_total,+total,+completed_at"

export const storedCartId = (): string | null => localStorage.getItem(CART_ID_KEY)

/** Forgets the cart once it became an order. */
export const forgetCart = () => localStorage.removeItem(CART_ID_KEY)

/** The current cart, or undefined when there is none (never created, completed, or gone). */
export async function currentCart(): Promise<HttpTypes.StoreCart | undefined> {
  const id = storedCartId()
  if (!id) {
    return undefined
  }
  try {
    const { cart } = await sdk.store.cart.retrieve(id, { fields: CART_FIELDS })
    if (cart.completed_at) {
      forgetCart()
      return undefined
    }
    return cart
  } catch (error) {
    if (storeErrorStatus(error) === 404) {
      forgetCart()
      return undefined
    }
    throw error
  }
}

/**
 * A subscription cart (subscription-cart.ts) names its plan in the cart's
 * metadata: its checkout starts the subscription instead of a one-time payment.
 */
export const SUBSCRIPTION_PLAN_KEY = "tw_subscription_plan_id"

export function subscriptionPlanIdOf(cart: HttpTypes.StoreCart | undefined): string | undefined {
  const id = cart?.metadata?.[SUBSCRIPTION_PLAN_KEY]
  return typeof id === "string" && id ? id : undefined
}

/** A new cart in the Taiwan region, kept as this browser's cart (for a logged-in customer, theirs). */
export async function newCart(body: Omit<HttpTypes.StoreCreateCart, "region_id"> = {}): Promise<HttpTypes.StoreCart> {
  const region = await taiwanRegion()
  const { cart } = await sdk.store.cart.create({ ...body, region_id: region.id }, { fields: CART_FIELDS })
  localStorage.setItem(CART_ID_KEY, cart.id)
  return cart
}

export async function addLine(cartId: string, variantId: string, quantity: number): Promise<HttpTypes.StoreCart> {
  return (await sdk.store.cart.createLineItem(cartId, { variant_id: variantId, quantity }, { fields: CART_FIELDS })).cart
}

export async function addToCart(variantId: string, quantity: number): Promise<HttpTypes.StoreCart> {
  let cart = await currentCart()
  if (cart && subscriptionPlanIdOf(cart)) {
    if (cart.items?.length) {
      throw new Error("Your cart holds a subscription, which is checked out on its own (the payment service charges one amount each period). Check it out or remove it first, then add other items.")
    }
    // An emptied subscription cart: start an ordinary one instead.
    cart = undefined
  }
  cart ??= await newCart()
  return addLine(cart.id, variantId, quantity)
}

export async function setQuantity(cartId: string, lineId: string, quantity: number): Promise<HttpTypes.StoreCart> {
  if (quantity <= 0) {
    await sdk.store.cart.deleteLineItem(cartId, lineId)
    return (await sdk.store.cart.retrieve(cartId, { fields: CART_FIELDS })).cart
  }
  return (await sdk.store.cart.updateLineItem(cartId, lineId, { quantity }, { fields: CART_FIELDS })).cart
}

export async function updateCart(cartId: string, body: HttpTypes.StoreUpdateCart): Promise<HttpTypes.StoreCart> {
  return (await sdk.store.cart.update(cartId, body, { fields: CART_FIELDS })).cart
}

export async function chooseShipping(cartId: string, optionId: string): Promise<HttpTypes.StoreCart> {
  return (await sdk.store.cart.addShippingMethod(cartId, { option_id: optionId }, { fields: CART_FIELDS })).cart
}

export const itemCount = (cart: HttpTypes.StoreCart | undefined): number =>
  (cart?.items ?? []).reduce((sum, item) => sum + Number(item.quantity), 0)

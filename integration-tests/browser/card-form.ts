import type { Page } from "playwright-core"
import type { Shot } from "./screenshots"

/**
 * What a shopper does with "Pay by card", the payment service's card form
 * embedded in the checkout. The card inputs live in the SDK's iframe (served
 * by the sandbox), so they are reached through a frame locator.
 */
const CARD_FRAME = 'iframe[name="twpay-payment-frame"]'

export const cardFrame = (page: Page) => page.frameLocator(CARD_FRAME)

/** Waits until the card form is mounted and its frame has said it is ready (the "Loading…" line is gone). */
export async function cardFormReady(page: Page) {
  await page.locator(CARD_FRAME).waitFor()
  await page.locator("#card-status").waitFor({ state: "hidden" })
  await cardFrame(page).locator("#cardNumber").waitFor()
}

/** The payment intent the mounted form confirms (its id leads the client secret in the frame's address). */
export async function mountedIntentId(page: Page): Promise<string> {
  const src = (await page.getAttribute(CARD_FRAME, "src"))!
  const clientSecret = new URLSearchParams(new URL(src).hash.slice(1)).get("clientSecret")!
  return clientSecret.split("_secret_")[0]
}

/** Chooses "Pay by card" at the payment step and waits for the card form. */
export async function chooseCard(page: Page, shot: Shot) {
  await page.check("#payment-option-embedded-card")
  await cardFormReady(page)
  // Nothing typed yet: the pay button waits for complete card details.
  if (await page.isEnabled("#pay")) {
    throw new Error("the pay button is enabled before the card details are complete")
  }
  await shot("card-form")
}

/** Types a card into the frame and presses "Place order and pay" once the form says the details are complete. */
export async function payWithCard(page: Page, shot: Shot, cardNumber: string) {
  const frame = cardFrame(page)
  await frame.locator("#cardNumber").fill(cardNumber)
  await frame.locator("#cardExpiry").fill("12/34")
  await frame.locator("#cardCvc").fill("123")
  await page.waitForSelector("#pay:not([disabled])")
  await shot("card-entered")
  await page.click("#pay")
}

import { savedCardsSection } from "./saved-cards-section"
import type { AccountSection } from "./section"
import { subscriptionsSection } from "./subscriptions-section"

/** The account page's sections, in the order it shows them; a feature adds its own here. */
export const ACCOUNT_SECTIONS: readonly AccountSection[] = [subscriptionsSection, savedCardsSection]

import { Module } from "@medusajs/framework/utils"
import { checkTokenKeys } from "./check-token-keys"
import TwSavedCardModuleService from "./service"

/** Container key and link-table prefix of the saved-cards module. */
export const TW_SAVED_CARD_MODULE = "tw_saved_card"

/** The loader checks the token keys when the store boots: a wrong key stops the boot (check-token-keys.ts). */
export default Module(TW_SAVED_CARD_MODULE, { service: TwSavedCardModuleService, loaders: [checkTokenKeys] })
export { TwSavedCardModuleService }
export type { SavedCardOptions } from "./options"

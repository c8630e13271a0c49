import { moneyModelSuite } from "./money-model-suite"

moneyModelSuite(1)

import { Input, Label } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RemittanceFields } from "../../shared/payment-views"

const FIELDS: ReadonlyArray<keyof RemittanceFields> = ["bankCode", "bankName", "branchCode", "branchName", "account", "accountName"]

/** The shopper's bank account as a form's inputs; `idPrefix` keeps several forms on one page apart. */
export function RemittanceInputs({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation()
  return (
    <>
      {FIELDS.map((name) => (
        <div key={name}>
          <Label htmlFor={`${idPrefix}-${name}`} size="xsmall">
            {t(`twPayment.payment.fields.${name}`)}
          </Label>
          <Input id={`${idPrefix}-${name}`} name={name} size="small" required />
        </div>
      ))}
    </>
  )
}

/** What the inputs hold, from the submitted form. */
export function remittanceOf(form: HTMLFormElement): RemittanceFields {
  const data = new FormData(form)
  const field = (name: keyof RemittanceFields) => String(data.get(name) ?? "")
  return {
    bankCode: field("bankCode"),
    bankName: field("bankName"),
    branchCode: field("branchCode"),
    branchName: field("branchName"),
    account: field("account"),
    accountName: field("accountName"),
  }
}

import { Alert, Button, Drawer, Text, toast } from "@medusajs/ui"
import { type FormEvent, useState } from "react"
import { useTranslation } from "react-i18next"
import type { RemittanceDueView } from "../../shared/payment-views"
import { useRefundRemittance } from "../hooks/remittances"
import { RemittanceInputs, remittanceOf } from "./remittance-fields"

/**
 * The refund of one remittance due, to the bank account the merchant types (the shopper's). The account
 * goes to the service only; the service's refusal (an invalid account, a payment not paid) stays in the
 * drawer, since nothing changed.
 */
export function RefundRemittanceDrawer({ remittance }: { remittance: RemittanceDueView }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const refund = useRefundRemittance(remittance.id)

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    refund.mutate(remittanceOf(event.currentTarget), {
      onSuccess: () => {
        toast.success(t("twPayment.remittances.refunded", { amount: remittance.amount, transaction: remittance.transaction_hid }))
        setOpen(false)
      },
    })
  }
  const toggle = (next: boolean) => {
    setOpen(next)
    refund.reset()
  }

  return (
    <Drawer open={open} onOpenChange={toggle}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid={`tw-remittance-refund-${remittance.id}`}>
          {t("twPayment.remittances.refund")}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <form onSubmit={submit} className="flex flex-1 flex-col overflow-hidden">
          <Drawer.Header>
            <Drawer.Title>{t("twPayment.remittances.refundTitle", { amount: remittance.amount, transaction: remittance.transaction_hid })}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-2">
            <Text size="small" className="text-ui-fg-subtle">
              {t("twPayment.remittances.refundExplain")}
            </Text>
            <RemittanceInputs idPrefix={`tw-${remittance.id}`} />
            {refund.error && (
              <Alert variant="error" data-testid="tw-remittance-refusal">
                <Text size="small">{refund.error.message}</Text>
              </Alert>
            )}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" size="small" type="button">
                {t("twPayment.remittances.close")}
              </Button>
            </Drawer.Close>
            <Button size="small" type="submit" isLoading={refund.isPending}>
              {t("twPayment.remittances.refund")}
            </Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}

import { FetchError } from "@medusajs/js-sdk"
import { Alert, Button, Drawer, Label, Text, Textarea, toast } from "@medusajs/ui"
import { type FormEvent, useState } from "react"
import { useTranslation } from "react-i18next"
import { useCancelSubscription } from "../hooks/subscriptions"

/**
 * Cancel with a reason. The service may refuse (400 not_allowed: a charge is running, or it is already
 * cancelled, completed or stopped at the service); its message stays in the drawer, since nothing changed.
 */
export function CancelSubscriptionDrawer({ subscriptionId }: { subscriptionId: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState("")
  const cancel = useCancelSubscription(subscriptionId)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    cancel.mutate(reason.trim(), {
      onSuccess: () => {
        toast.success(t("twPayment.cancel.done"))
        setOpen(false)
        setReason("")
      },
    })
  }
  const toggle = (next: boolean) => {
    setOpen(next)
    cancel.reset()
  }
  // The reason is checked in the form, so a 400 is the service's refusal.
  const refused = cancel.error instanceof FetchError && cancel.error.status === 400

  return (
    <Drawer open={open} onOpenChange={toggle}>
      <Drawer.Trigger asChild>
        <Button variant="danger" size="small" data-testid="tw-subscription-cancel">
          {t("twPayment.cancel.button")}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <form onSubmit={submit} className="flex flex-1 flex-col overflow-hidden">
          <Drawer.Header>
            <Drawer.Title>{t("twPayment.cancel.title")}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4">
            <Text size="small" className="text-ui-fg-subtle">
              {t("twPayment.cancel.explain")}
            </Text>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="tw-cancel-reason">{t("twPayment.cancel.reason")}</Label>
              <Textarea id="tw-cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} required />
            </div>
            {cancel.error && (
              <Alert variant="error" data-testid="tw-cancel-refusal">
                <Text weight="plus" size="small">
                  {t(refused ? "twPayment.cancel.refused" : "twPayment.cancel.failed")}
                </Text>
                <Text size="small">{cancel.error.message}</Text>
              </Alert>
            )}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" size="small" type="button">
                {t("twPayment.cancel.keep")}
              </Button>
            </Drawer.Close>
            <Button variant="danger" size="small" type="submit" isLoading={cancel.isPending} disabled={!reason.trim()}>
              {t("twPayment.cancel.button")}
            </Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}

import { Alert, Button, Drawer, Label, Text, Textarea, toast } from "@medusajs/ui"
import { type FormEvent, useState } from "react"
import { AdminApiError, adminFetch } from "../lib/admin-fetch"

interface Props {
  subscriptionId: string
  onCancelled: () => void
}

/**
 * Cancel with a reason. The service may refuse (400 not_allowed: a charge is running, or it is already
 * cancelled, completed or stopped at the service); its message stays in the drawer, since nothing changed.
 */
export function CancelSubscriptionDrawer({ subscriptionId, onCancelled }: Props) {
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState("")
  const [saving, setSaving] = useState(false)
  const [refusal, setRefusal] = useState<{ title: string; message: string }>()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    setRefusal(undefined)
    try {
      await adminFetch(`/admin/tw-subscriptions/${subscriptionId}/cancel`, { method: "POST", body: { reason: reason.trim() } })
      toast.success("Subscription cancelled")
      setOpen(false)
      setReason("")
      onCancelled()
    } catch (e) {
      const refused = e instanceof AdminApiError && e.type === "not_allowed"
      setRefusal({ title: refused ? "The payment service refused the cancel; nothing changed" : "The cancel failed", message: (e as Error).message })
    } finally {
      setSaving(false)
    }
  }

  const toggle = (next: boolean) => {
    setOpen(next)
    setRefusal(undefined)
  }

  return (
    <Drawer open={open} onOpenChange={toggle}>
      <Drawer.Trigger asChild>
        <Button variant="danger" size="small" data-testid="tw-subscription-cancel">
          Cancel subscription
        </Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <form onSubmit={(event) => void submit(event)} className="flex flex-1 flex-col overflow-hidden">
          <Drawer.Header>
            <Drawer.Title>Cancel subscription</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4">
            <Text size="small" className="text-ui-fg-subtle">
              The payment service stops charging the card. Periods already paid and their orders are kept.
            </Text>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="tw-cancel-reason">Reason (shown on the subscription)</Label>
              <Textarea id="tw-cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} required />
            </div>
            {refusal && (
              <Alert variant="error" data-testid="tw-cancel-refusal">
                <Text weight="plus" size="small">
                  {refusal.title}
                </Text>
                <Text size="small">{refusal.message}</Text>
              </Alert>
            )}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" size="small" type="button">
                Keep it
              </Button>
            </Drawer.Close>
            <Button variant="danger" size="small" type="submit" isLoading={saving} disabled={!reason.trim()}>
              Cancel subscription
            </Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}

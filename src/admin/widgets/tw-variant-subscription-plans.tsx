import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProductVariant, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, IconButton, Switch, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { PencilSquare, Trash } from "@medusajs/icons"
import { PlanDrawer } from "../components/plan-drawer"
import { adminFetch, useAdminGet } from "../lib/admin-fetch"
import { formatInterval } from "../lib/subscription-format"
import type { Plan } from "../lib/subscription-types"

/** The variant's subscription plans: offer it monthly or scheduled, switch a plan on or off, change or delete it. */
const VariantSubscriptionPlansWidget = ({ data: variant }: DetailWidgetProps<AdminProductVariant>) => {
  const { data, error, reload } = useAdminGet<{ plans: Plan[] }>(`/admin/product-variants/${variant.id}/tw-subscription-plans`)
  const prompt = usePrompt()

  const change = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run()
      toast.success(what)
    } catch (e) {
      toast.error((e as Error).message)
    } finally {
      reload()
    }
  }
  const setActive = (plan: Plan, active: boolean) =>
    change(active ? "Plan offered to shoppers" : "Plan no longer offered", () => adminFetch(`/admin/tw-subscription-plans/${plan.id}`, { method: "POST", body: { active } }))
  const remove = async (plan: Plan) => {
    const confirmed = await prompt({
      title: `Delete "${plan.title}"?`,
      description: "Shoppers can no longer subscribe to it. Running subscriptions are not affected.",
      confirmText: "Delete",
      cancelText: "Keep",
    })
    if (confirmed) {
      await change("Plan deleted", () => adminFetch(`/admin/tw-subscription-plans/${plan.id}`, { method: "DELETE" }))
    }
  }

  return (
    <Container className="divide-y p-0" data-testid="tw-variant-plans">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Subscription plans</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Card only, TWD only, for logged-in customers; one subscription per cart.
          </Text>
        </div>
        <PlanDrawer
          variantId={variant.id}
          onSaved={reload}
          trigger={
            <Button variant="secondary" size="small">
              Add plan
            </Button>
          }
        />
      </div>
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error}</Text>
      ) : !data ? (
        <Text className="px-6 py-4">Loading…</Text>
      ) : !data.plans.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          Not offered as a subscription.
        </Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Title</Table.HeaderCell>
              <Table.HeaderCell>Charges</Table.HeaderCell>
              <Table.HeaderCell>Periods</Table.HeaderCell>
              <Table.HeaderCell>First charge</Table.HeaderCell>
              <Table.HeaderCell>Offered</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.plans.map((plan) => (
              <Table.Row key={plan.id}>
                <Table.Cell>{plan.title}</Table.Cell>
                <Table.Cell>{formatInterval(plan)}</Table.Cell>
                <Table.Cell>{plan.periods ?? "until cancelled"}</Table.Cell>
                <Table.Cell>{plan.first_charge_delay_days ? `${plan.first_charge_delay_days} days after checkout` : "at checkout"}</Table.Cell>
                <Table.Cell>
                  <Switch aria-label={`Offer ${plan.title}`} checked={plan.active} onCheckedChange={(active) => void setActive(plan, active)} />
                </Table.Cell>
                <Table.Cell>
                  <div className="flex justify-end gap-x-1">
                    <PlanDrawer
                      variantId={variant.id}
                      plan={plan}
                      onSaved={reload}
                      trigger={
                        <IconButton size="small" variant="transparent" aria-label={`Edit ${plan.title}`}>
                          <PencilSquare />
                        </IconButton>
                      }
                    />
                    <IconButton size="small" variant="transparent" aria-label={`Delete ${plan.title}`} onClick={() => void remove(plan)}>
                      <Trash />
                    </IconButton>
                  </div>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "product_variant.details.after", id: "medusa-payment-tw:variant-subscription-plans" })

export default VariantSubscriptionPlansWidget

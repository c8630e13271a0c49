import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProductVariant, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, IconButton, Switch, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { PencilSquare, Trash } from "@medusajs/icons"
import { useTranslation } from "react-i18next"
import type { PlanView } from "../../shared/subscription-views"
import { PlanDrawer } from "../components/plan-drawer"
import { useDeletePlan, useSavePlan, useVariantPlans } from "../hooks/plans"
import { formatInterval } from "../lib/subscription-format"

/** The variant's subscription plans: offer it monthly or scheduled, switch a plan on or off, change or delete it. */
const VariantSubscriptionPlansWidget = ({ data: variant }: DetailWidgetProps<AdminProductVariant>) => {
  const { t } = useTranslation()
  const { data, error } = useVariantPlans(variant.id)
  const save = useSavePlan(variant.id)
  const remove = useDeletePlan(variant.id)
  const prompt = usePrompt()

  const outcome = (done: string) => ({ onSuccess: () => toast.success(done), onError: (e: Error) => toast.error(e.message) })
  const setActive = (plan: PlanView, active: boolean) =>
    save.mutate({ planId: plan.id, fields: { active } }, outcome(t(active ? "twPayment.plans.offered" : "twPayment.plans.withdrawn")))
  const confirmRemove = async (plan: PlanView) => {
    const confirmed = await prompt({
      title: t("twPayment.plans.deleteTitle", { title: plan.title }),
      description: t("twPayment.plans.deleteDescription"),
      confirmText: t("twPayment.common.delete"),
      cancelText: t("twPayment.common.keep"),
    })
    if (confirmed) {
      remove.mutate(plan.id, outcome(t("twPayment.plans.deleted")))
    }
  }

  return (
    <Container className="divide-y p-0" data-testid="tw-variant-plans">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">{t("twPayment.plans.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("twPayment.plans.description")}
          </Text>
        </div>
        <PlanDrawer
          variantId={variant.id}
          trigger={
            <Button variant="secondary" size="small">
              {t("twPayment.plans.add")}
            </Button>
          }
        />
      </div>
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error.message}</Text>
      ) : !data ? (
        <Text className="px-6 py-4">{t("twPayment.common.loading")}</Text>
      ) : !data.plans.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          {t("twPayment.plans.empty")}
        </Text>
      ) : (
        <Table data-testid="tw-variant-plans-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("twPayment.plans.columns.title")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.plans.columns.charges")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.plans.columns.periods")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.plans.columns.firstCharge")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.plans.columns.offered")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.plans.map((plan) => (
              <Table.Row key={plan.id} data-testid="tw-variant-plan-row">
                <Table.Cell>{plan.title}</Table.Cell>
                <Table.Cell>{formatInterval(t, plan)}</Table.Cell>
                <Table.Cell>{plan.periods ?? t("twPayment.plans.untilCancelled")}</Table.Cell>
                <Table.Cell>
                  {plan.first_charge_delay_days ? t("twPayment.plans.daysAfterCheckout", { count: plan.first_charge_delay_days }) : t("twPayment.plans.atCheckout")}
                </Table.Cell>
                <Table.Cell>
                  <Switch aria-label={t("twPayment.plans.offer", { title: plan.title })} checked={plan.active} onCheckedChange={(active) => setActive(plan, active)} />
                </Table.Cell>
                <Table.Cell>
                  <div className="flex justify-end gap-x-1">
                    <PlanDrawer
                      variantId={variant.id}
                      plan={plan}
                      trigger={
                        <IconButton size="small" variant="transparent" aria-label={t("twPayment.plans.edit", { title: plan.title })}>
                          <PencilSquare />
                        </IconButton>
                      }
                    />
                    <IconButton size="small" variant="transparent" aria-label={t("twPayment.plans.remove", { title: plan.title })} onClick={() => void confirmRemove(plan)}>
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

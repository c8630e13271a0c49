import { Alert, Button, Drawer, Input, Label, Select, Switch, Text, toast } from "@medusajs/ui"
import { type FormEvent, type ReactNode, useState } from "react"
import { useTranslation } from "react-i18next"
import type { PlanKind } from "../../shared/statuses"
import type { PlanFields, PlanView } from "../../shared/subscription-views"
import { useSavePlan } from "../hooks/plans"

type Plan = PlanView

interface Props {
  variantId: string
  /** The plan to edit; none to create one. */
  plan?: Plan
  trigger: ReactNode
}

interface Fields {
  title: string
  kind: PlanKind
  interval_months: string
  untilCancelled: boolean
  periods: string
  first_charge_delay_days: string
  active: boolean
}

const initial = (plan?: Plan): Fields => ({
  title: plan?.title ?? "",
  kind: plan?.kind ?? "monthly",
  interval_months: String(plan?.interval_months ?? 1),
  untilCancelled: plan ? plan.periods === null : false,
  periods: String(plan?.periods ?? 12),
  first_charge_delay_days: String(plan?.first_charge_delay_days ?? 0),
  active: plan?.active ?? true,
})

/** The body of the plan routes; a monthly plan always charges every month from checkout. */
function body(f: Fields): PlanFields {
  const monthly = f.kind === "monthly"
  return {
    title: f.title.trim(),
    kind: f.kind,
    interval_months: monthly ? 1 : Number(f.interval_months),
    periods: f.untilCancelled ? null : Number(f.periods),
    first_charge_delay_days: monthly ? 0 : Number(f.first_charge_delay_days),
    active: f.active,
  }
}

/** Create or edit a variant's subscription plan; the route's message (it names the field) is shown as is. */
export function PlanDrawer({ variantId, plan, trigger }: Props) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [fields, setFields] = useState<Fields>(() => initial(plan))
  const save = useSavePlan(variantId)
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((f) => ({ ...f, [key]: value }))
  const prefix = plan?.id ?? `new-${variantId}`

  const toggle = (next: boolean) => {
    setOpen(next)
    save.reset()
    if (next) {
      setFields(initial(plan))
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate(
      { planId: plan?.id, fields: body(fields) },
      {
        onSuccess: () => {
          toast.success(t(plan ? "twPayment.plans.saved" : "twPayment.plans.created"))
          setOpen(false)
        },
      }
    )
  }

  const scheduled = fields.kind === "scheduled"
  return (
    <Drawer open={open} onOpenChange={toggle}>
      <Drawer.Trigger asChild>{trigger}</Drawer.Trigger>
      <Drawer.Content>
        <form onSubmit={submit} className="flex flex-1 flex-col overflow-hidden">
          <Drawer.Header>
            <Drawer.Title>{t(plan ? "twPayment.plans.editTitle" : "twPayment.plans.newTitle")}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
            <div className="flex flex-col gap-y-2">
              <Label htmlFor={`${prefix}-title`}>{t("twPayment.plans.fieldTitle")}</Label>
              <Input id={`${prefix}-title`} value={fields.title} onChange={(e) => set("title", e.target.value)} maxLength={100} required />
            </div>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor={`${prefix}-kind`}>{t("twPayment.plans.fieldKind")}</Label>
              <Select value={fields.kind} onValueChange={(v) => set("kind", v as PlanKind)}>
                <Select.Trigger id={`${prefix}-kind`}>
                  <Select.Value />
                </Select.Trigger>
                <Select.Content>
                  <Select.Item value="monthly">{t("twPayment.plans.kindMonthly")}</Select.Item>
                  <Select.Item value="scheduled">{t("twPayment.plans.kindScheduled")}</Select.Item>
                </Select.Content>
              </Select>
            </div>
            {scheduled && (
              <div className="grid grid-cols-2 gap-x-4">
                <div className="flex flex-col gap-y-2">
                  <Label htmlFor={`${prefix}-interval`}>{t("twPayment.plans.fieldInterval")}</Label>
                  <Input id={`${prefix}-interval`} type="number" min={1} max={12} value={fields.interval_months} onChange={(e) => set("interval_months", e.target.value)} required />
                </div>
                <div className="flex flex-col gap-y-2">
                  <Label htmlFor={`${prefix}-delay`}>{t("twPayment.plans.fieldDelay")}</Label>
                  <Input id={`${prefix}-delay`} type="number" min={0} max={364} value={fields.first_charge_delay_days} onChange={(e) => set("first_charge_delay_days", e.target.value)} required />
                </div>
                <Text size="xsmall" className="text-ui-fg-subtle col-span-2 mt-1">
                  {t("twPayment.plans.delayHint")}
                </Text>
              </div>
            )}
            <div className="flex items-center gap-x-2">
              <Switch id={`${prefix}-forever`} checked={fields.untilCancelled} onCheckedChange={(v) => set("untilCancelled", v)} />
              <Label htmlFor={`${prefix}-forever`}>{t("twPayment.plans.fieldUntilCancelled")}</Label>
            </div>
            {!fields.untilCancelled && (
              <div className="flex flex-col gap-y-2">
                <Label htmlFor={`${prefix}-periods`}>{t("twPayment.plans.fieldPeriods")}</Label>
                <Input id={`${prefix}-periods`} type="number" min={2} max={999} value={fields.periods} onChange={(e) => set("periods", e.target.value)} required />
              </div>
            )}
            <div className="flex items-center gap-x-2">
              <Switch id={`${prefix}-active`} checked={fields.active} onCheckedChange={(v) => set("active", v)} />
              <Label htmlFor={`${prefix}-active`}>{t("twPayment.plans.fieldActive")}</Label>
            </div>
            {plan && (
              <Text size="xsmall" className="text-ui-fg-subtle">
                {t("twPayment.plans.keepsTerms")}
              </Text>
            )}
            {save.error && (
              <Alert variant="error" data-testid="tw-plan-error">
                {save.error.message}
              </Alert>
            )}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" size="small" type="button">
                {t("twPayment.common.cancel")}
              </Button>
            </Drawer.Close>
            <Button size="small" type="submit" isLoading={save.isPending}>
              {t("twPayment.common.save")}
            </Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}

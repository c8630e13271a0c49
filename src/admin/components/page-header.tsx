import { Badge, Heading, Text } from "@medusajs/ui"

/**
 * A page's title and description, with its choices (a list's status, a time window) as badges on the right,
 * the chosen one blue.
 */
export function PageHeader<T extends string>({ title, description, choices, chosen, onChoose }: { title: string; description: string; choices: Array<{ value: T; label: string }>; chosen: T; onChoose: (value: T) => void }) {
  return (
    <div className="flex items-start justify-between gap-x-4 px-6 py-4">
      <div>
        <Heading level="h1">{title}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {description}
        </Text>
      </div>
      <div className="flex gap-x-2">
        {choices.map(({ value, label }) => (
          <Badge key={value} asChild color={value === chosen ? "blue" : "grey"} size="small">
            <button type="button" onClick={() => onChoose(value)}>
              {label}
            </button>
          </Badge>
        ))}
      </div>
    </div>
  )
}

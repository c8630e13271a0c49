/** Medusa keeps amounts in major units; TWD has no minor unit in practice. */
export function formatMoney(amount: number | undefined | null, currencyCode = "twd"): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currencyCode.toUpperCase(),
    minimumFractionDigits: 0,
    maximumFractionDigits: currencyCode.toLowerCase() === "twd" ? 0 : 2,
  }).format(Number(amount ?? 0))
}

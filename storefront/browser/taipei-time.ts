/** A time shown in Taipei time, whatever time zone the shopper's device is set to. */
export function formatTaipeiTime(iso: string): string {
  const text = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Taipei", dateStyle: "medium", timeStyle: "short" }).format(new Date(iso))
  return `${text} (Taipei time)`
}

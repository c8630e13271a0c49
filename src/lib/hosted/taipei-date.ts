/**
 * Calendar dates as the service reads them: `yyyy/MM/dd` in Taipei time.
 * Taiwan has had no daylight saving since 1979, so Taipei is always UTC+8 and a
 * fixed offset is exact (no time-zone database needed).
 */

const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000

export interface CalendarDate {
  year: number
  /** 1 to 12 */
  month: number
  day: number
}

/** The Taipei calendar date at the given instant. */
export function taipeiDate(instant: Date): CalendarDate {
  const shifted = new Date(instant.getTime() + TAIPEI_OFFSET_MS)
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }
}

const DATE_PATTERN = /^(\d{4})\/(\d{2})\/(\d{2})$/

/** Strict `yyyy/MM/dd` (zero-padded, a real calendar day); undefined otherwise. */
export function parseCalendarDate(text: string): CalendarDate | undefined {
  const match = DATE_PATTERN.exec(text)
  if (!match) {
    return undefined
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return undefined
  }
  return { year, month, day }
}

export function formatCalendarDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0")
  return `${pad(date.year, 4)}/${pad(date.month, 2)}/${pad(date.day, 2)}`
}

/**
 * The same day `months` later. A day the target month lacks (31st, Feb 29) is
 * clamped to its last day: a bound that errs early keeps local checks no looser
 * than the service's.
 */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months
  const year = Math.floor(index / 12)
  const month = (index % 12) + 1
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) }
}

/** Negative, zero or positive as `a` is before, equal to or after `b`. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/**
 * Taipei calendar arithmetic. The service reads merchant dates (`startDate`,
 * `expectedPayoutDate`) as Taipei dates and charges recurring payments at 09:00
 * Taipei. Taiwan has no daylight saving, so UTC+8 is exact all year.
 */

const OFFSET_MS = 8 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export interface CalendarDate {
  year: number
  /** 1 to 12 */
  month: number
  day: number
}

export function taipeiDate(ms: number): CalendarDate {
  const shifted = new Date(ms + OFFSET_MS)
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }
}

/** The instant of `hour`:00 Taipei time on a Taipei date. */
export function atTaipei(date: CalendarDate, hour: number): number {
  return Date.UTC(date.year, date.month - 1, date.day, hour) - OFFSET_MS
}

/** Strict `yyyy/MM/dd` naming a real day; undefined otherwise. */
export function parseDate(text: string): CalendarDate | undefined {
  const match = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(text)
  if (!match) {
    return undefined
  }
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    return undefined
  }
  return date
}

export function formatDate(date: CalendarDate, separator = "/"): string {
  return [String(date.year).padStart(4, "0"), pad2(date.month), pad2(date.day)].join(separator)
}

/** Same day `months` later; a day the month lacks (the 31st, 29 February) becomes its last day. */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + date.month - 1 + months
  const year = Math.floor(index / 12)
  const month = (index % 12) + 1
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) }
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

/** `ms` moved on by `days` Monday-to-Friday days (Taipei), keeping the time of day. */
export function addWorkingDays(ms: number, days: number): number {
  let at = ms
  let left = days
  while (left > 0) {
    at += DAY_MS
    const weekday = new Date(at + OFFSET_MS).getUTCDay()
    if (weekday !== 0 && weekday !== 6) {
      left--
    }
  }
  return at
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function pad2(n: number): string {
  return String(n).padStart(2, "0")
}

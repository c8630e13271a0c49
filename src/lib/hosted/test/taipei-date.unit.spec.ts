import { addMonths, compareCalendarDates, formatCalendarDate, parseCalendarDate, taipeiDate } from "../taipei-date"

describe("Taipei calendar dates", () => {
  it.each([
    ["2026-11-21T16:30:00Z", "2026/11/22"],
    ["2026-11-21T15:59:59.999Z", "2026/11/21"],
    ["2026-11-21T16:00:00Z", "2026/11/22"],
    ["2026-12-31T16:00:00Z", "2027/01/01"],
    ["2028-02-28T16:00:00Z", "2028/02/29"],
    ["2026-07-01T12:00:00Z", "2026/07/01"],
  ])("%s is %s in Taipei", (instant, expected) => {
    expect(formatCalendarDate(taipeiDate(new Date(instant)))).toBe(expected)
  })

  it("parses strict yyyy/MM/dd", () => {
    expect(parseCalendarDate("2026/11/22")).toEqual({ year: 2026, month: 11, day: 22 })
    expect(parseCalendarDate("2028/02/29")).toEqual({ year: 2028, month: 2, day: 29 })
  })

  it.each(["2026/11/31", "2027/02/29", "2026/13/01", "2026/00/10", "2026/11/00", "2026-11-22", "2026/1/5", "26/11/22", "2026/11/22 "])(
    "refuses %p",
    (text) => {
      expect(parseCalendarDate(text)).toBeUndefined()
    }
  )

  it("adds months, clamping to the last day of a shorter month", () => {
    const d = (text: string) => parseCalendarDate(text)!
    expect(formatCalendarDate(addMonths(d("2026/11/22"), 12))).toBe("2027/11/22")
    expect(formatCalendarDate(addMonths(d("2026/01/31"), 1))).toBe("2026/02/28")
    expect(formatCalendarDate(addMonths(d("2028/02/29"), 12))).toBe("2029/02/28")
    expect(formatCalendarDate(addMonths(d("2026/12/15"), 1))).toBe("2027/01/15")
  })

  it("compares dates", () => {
    const d = (text: string) => parseCalendarDate(text)!
    expect(compareCalendarDates(d("2026/11/22"), d("2026/11/22"))).toBe(0)
    expect(compareCalendarDates(d("2026/11/21"), d("2026/11/22"))).toBeLessThan(0)
    expect(compareCalendarDates(d("2027/01/01"), d("2026/12/31"))).toBeGreaterThan(0)
  })
})

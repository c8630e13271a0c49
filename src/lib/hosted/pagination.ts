import { UnexpectedResponseError } from "../http"

export interface Page<T> {
  items: T[]
  /** Opaque marker of the next page, passed back unchanged; null on the last page. */
  page: string | null
}

/**
 * Walks a paged list (spec 4.8, 4.13) lazily: a page is fetched only when the
 * previous one has been consumed. A marker the service already gave would loop
 * forever, so it is treated as a broken answer.
 */
export async function* paginate<T>(
  fetchPage: (page: string | undefined) => Promise<Page<T>>,
  what: string,
  start?: string
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>()
  let marker = start
  for (;;) {
    const { items, page } = await fetchPage(marker)
    yield* items
    if (page === null) {
      return
    }
    if (seen.has(page) || page === start) {
      throw new UnexpectedResponseError({ code: "UNEXPECTED_RESPONSE", message: `${what}: the service repeated a page marker` })
    }
    seen.add(page)
    marker = page
  }
}

import { UnexpectedResponseError } from "../http"

/** One page of a paged list: its items under `key`, and the marker of the next page (null on the last). */
export type Page<K extends string, T> = Record<K, T[]> & { page: string | null }

/**
 * Walks a paged list (spec 4.8, 4.13) lazily: a page is fetched only when the
 * previous one has been consumed. A marker the service already gave would loop
 * forever, so it is treated as a broken answer.
 */
export async function* paginate<K extends string, T>(
  fetchPage: (page: string | undefined) => Promise<Page<K, T>>,
  key: K,
  start?: string
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>()
  let marker = start
  for (;;) {
    const result = await fetchPage(marker)
    yield* result[key]
    const { page } = result
    if (page === null) {
      return
    }
    if (seen.has(page) || page === start) {
      throw new UnexpectedResponseError({ code: "UNEXPECTED_RESPONSE", message: `Listing ${key}: the service repeated a page marker` })
    }
    seen.add(page)
    marker = page
  }
}

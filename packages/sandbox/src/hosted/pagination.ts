import { systemError } from "./envelope"

/**
 * The opaque `page` marker of list endpoints: base64url of the list, the merchant
 * and the position of the last item returned. A marker that does not decode, or
 * belongs to another list or merchant, is invalid (500 F0001).
 */

export const PAGE_SIZE = 50

interface Marker {
  list: string
  merchantId: string
  after: number
}

export function paginate<T extends { seq: number }>(
  items: T[],
  query: URLSearchParams,
  list: string,
  merchantId: string
): { items: T[]; page: string | null } {
  const raw = query.get("page")
  const after = raw === null ? 0 : decode(raw, list, merchantId)
  const rest = items.filter((item) => item.seq > after)
  const pageItems = rest.slice(0, PAGE_SIZE)
  const more = rest.length > PAGE_SIZE
  return {
    items: pageItems,
    page: more ? encode({ list, merchantId, after: pageItems[pageItems.length - 1].seq }) : null,
  }
}

function encode(marker: Marker): string {
  return Buffer.from(JSON.stringify(marker)).toString("base64url")
}

function decode(raw: string, list: string, merchantId: string): number {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) {
      throw new Error("not base64url")
    }
    const marker = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<Marker>
    if (marker.list === list && marker.merchantId === merchantId && Number.isInteger(marker.after) && (marker.after as number) > 0) {
      return marker.after as number
    }
  } catch {
    // fall through: any undecodable marker is invalid
  }
  throw systemError("Invalid page marker")
}

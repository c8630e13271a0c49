/** mulberry32: a small seeded generator, so a chaos run with the same --seed makes the same choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** One of `weights`' keys, with probability proportional to its weight. */
export function pick<K extends string>(random: () => number, weights: Record<K, number>): K {
  const entries = Object.entries(weights) as Array<[K, number]>
  const total = entries.reduce((sum, [, w]) => sum + w, 0)
  let draw = random() * total
  for (const [key, weight] of entries) {
    draw -= weight
    if (draw < 0) {
      return key
    }
  }
  return entries[entries.length - 1][0]
}

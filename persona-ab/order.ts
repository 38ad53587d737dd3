/** Which version a reader sees as A and which as B, per scenario: random, but the same for the same seed. */
export type Version = 'base' | 'change'
export interface Sides {
  A: Version
  B: Version
}

/** mulberry32: a small seeded generator; the order only needs to be unpredictable to the reader, not secure. */
function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Each scenario's sides, drawn from the seed and its id alone: `--only` keeps a scenario's sides for the same seed. */
export function assignSides(ids: readonly string[], seed: number): Record<string, Sides> {
  const sides: Record<string, Sides> = {}
  for (const id of ids) {
    let h = seed >>> 0
    for (const ch of id) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0
    sides[id] = generator(h)() < 0.5 ? { A: 'base', B: 'change' } : { A: 'change', B: 'base' }
  }
  return sides
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31)
}

/**
 * "The same memory, said again": a pure measure over two texts, in Chinese,
 * English or both (CONTRACT#near-duplicates). Two texts are near-duplicates when
 *
 *  1. they say "no" the same number of times (不/没/别/未/无/非/勿/莫; not, n't, no,
 *     never, …) — 喜欢 and 不喜欢 never merge;
 *  2. they hold the same numbers (digits and Chinese numerals, in any order) — a new
 *     date, time, price or count is a new memory;
 *  3. neither adds a unit the other lacks while lacking one the other has (a
 *     substitution: 乌龙茶 → 红茶, 蓝色 → 绿色, like → hate): wording may grow or shrink,
 *     a changed value is a new memory;
 *  4. after normalising (NFKC, lower case, punctuation and spacing dropped, pronouns and
 *     filler words such as 很/真的/really/just dropped, an English plural or third-person
 *     -s folded) their units — each CJK character, each other word — and pairs of
 *     adjacent units overlap with a Dice coefficient ≥ `NEAR_DUPLICATE_THRESHOLD`.
 *
 * Pronouns are dropped because the person says 「我喜欢乌龙茶」 and the model writes
 * 「对方喜欢乌龙茶」 about the same person. A changed preference (乌龙茶 → 红茶) changes
 * most pairs and falls far below the threshold.
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.75

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_ALL = new RegExp(CJK.source, 'gu')
const UNIT_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu
const CN_NEGATION = /[不没别未无非勿莫]/gu
const EN_NEGATION = new Set(['not', 'no', 'never', 'nobody', 'nothing', 'none', 'neither', 'nor', 'without', 'cannot', 'nowhere'])
const NUMBER_RE = /\p{Nd}+(?:[.,]\p{Nd}+)*|[〇零一二两三四五六七八九十百千万亿]+/gu
/** Words that change who is speaking or how strongly, not what is remembered. */
const CN_DROP = new Set('我你他她它们的了很挺蛮超太真都也呢啊吧呀哦嘛就还又再'.split(''))
const CN_DROP_WORDS = ['对方', '用户', '非常', '特别', '真的', '其实', '一直', '总是']
const EN_DROP = new Set([
  'i',
  'me',
  'my',
  'mine',
  'you',
  'your',
  'he',
  'him',
  'his',
  'she',
  'her',
  'they',
  'them',
  'their',
  'we',
  'our',
  'user',
  'person',
  'the',
  'a',
  'an',
  'really',
  'very',
  'so',
  'just',
  'quite',
  'truly',
  'also',
  'too',
  'is',
  'am',
  'are',
  'do',
  'does',
])

/** NFKC, lower case, and "don't" → "do not" so negations are words. */
function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/can't/g, 'can not')
    .replace(/won't/g, 'will not')
    .replace(/n't\b/g, ' not')
}

function negations(text: string): number {
  let n = (text.match(CN_NEGATION) ?? []).length
  for (const word of text.match(/[\p{L}']+/gu) ?? []) if (EN_NEGATION.has(word)) n++
  return n
}

function numbers(text: string): string {
  return (text.match(NUMBER_RE) ?? []).sort().join('|')
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/** The meaning-bearing units of a normalised text, in order. */
function units(text: string): string[] {
  let t = text
  for (const w of CN_DROP_WORDS) t = t.split(w).join(' ')
  // Every CJK character is a unit of its own, also when it touches a digit or a Latin word (5月1日).
  t = t.replace(CJK_ALL, ' $& ')
  const out: string[] = []
  for (const unit of t.match(UNIT_RE) ?? []) {
    if (CJK.test(unit)) {
      if (!CN_DROP.has(unit)) out.push(unit)
    } else if (!EN_DROP.has(unit)) out.push(stem(unit.replace(/'s$/, '')))
  }
  return out
}

function features(list: readonly string[]): Map<string, number> {
  const bag = new Map<string, number>()
  const add = (k: string): void => {
    bag.set(k, (bag.get(k) ?? 0) + 1)
  }
  for (const u of list) add(u)
  for (let i = 1; i < list.length; i++) add(`${list[i - 1]}\u0000${list[i]}`)
  return bag
}

/** Each side holds a unit the other does not have. */
function substituted(a: NearDuplicateKey, b: NearDuplicateKey): boolean {
  a.unitSet ??= new Set(a.units)
  b.unitSet ??= new Set(b.units)
  const sa = a.unitSet
  const sb = b.unitSet
  return a.units.some((u) => !sb.has(u)) && b.units.some((u) => !sa.has(u))
}

/** Dice coefficient of the two feature multisets: 1 for the same units in the same order, 0 for nothing shared. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0
  let total = 0
  for (const n of a.values()) total += n
  for (const n of b.values()) total += n
  for (const [k, n] of a) shared += Math.min(n, b.get(k) ?? 0)
  return total === 0 ? 0 : (2 * shared) / total
}

/** What the measure needs of one text, worked out once: a text compared with several others is prepared once (a step's memory hits among themselves). */
export interface NearDuplicateKey {
  readonly negations: number
  readonly numbers: string
  readonly units: readonly string[]
  /** Filled when first compared past the guards. */
  features: Map<string, number> | undefined
  /** The distinct units, filled when first compared. */
  unitSet?: Set<string>
}

export function nearDuplicateKey(text: string): NearDuplicateKey {
  const n = normalise(text)
  return { negations: negations(n), numbers: numbers(n), units: units(n), features: undefined }
}

/** `similarity` of two prepared texts. */
export function similarityOf(a: NearDuplicateKey, b: NearDuplicateKey): number {
  if (a.negations !== b.negations) return 0
  if (a.numbers !== b.numbers) return 0
  if (a.units.length === 0 || b.units.length === 0) return 0
  if (substituted(a, b)) return 0
  a.features ??= features(a.units)
  b.features ??= features(b.units)
  return dice(a.features, b.features)
}

/**
 * How alike two memories are, 0…1; 0 when a guard says they mean different
 * things (another number of negations, other numbers) or either says nothing.
 */
export function similarity(a: string, b: string): number {
  return similarityOf(nearDuplicateKey(a), nearDuplicateKey(b))
}

export function isNearDuplicate(a: string, b: string, threshold = NEAR_DUPLICATE_THRESHOLD): boolean {
  return similarity(a, b) >= threshold
}

/** The most similar candidate at or above the threshold, if any (ties: the first given). */
export function findNearDuplicate<T extends { text: string }>(
  text: string,
  candidates: Iterable<T>,
  threshold = NEAR_DUPLICATE_THRESHOLD,
): { item: T; similarity: number } | undefined {
  let best: { item: T; similarity: number } | undefined
  const key = nearDuplicateKey(text)
  for (const item of candidates) {
    const s = similarityOf(key, nearDuplicateKey(item.text))
    if (s >= threshold && (best === undefined || s > best.similarity)) best = { item, similarity: s }
  }
  return best
}

/** Items in order, each left out when it is a near-duplicate of one kept before it. */
export function withoutNearDuplicates<T extends { text: string }>(items: readonly T[], threshold = NEAR_DUPLICATE_THRESHOLD): T[] {
  const kept: T[] = []
  for (const item of items) if (findNearDuplicate(item.text, kept, threshold) === undefined) kept.push(item)
  return kept
}

/**
 * Many texts, for finding near-duplicates among thousands (an import against the
 * whole store): an inverted list from unit to texts narrows the candidates to
 * texts sharing at least half of the query's distinct units (the measure cannot
 * reach the threshold with fewer), and units held by more than `commonCap` texts
 * are not used to narrow (they say little, and would make every text a candidate).
 */
export class NearDuplicateIndex {
  /** Each id added gets a slot; the postings and the counts of a query hold slots, not ids (a count per text is an array cell, not a map entry). */
  private readonly slotOf = new Map<string, number>()
  private readonly ids: string[] = []
  private readonly texts: string[] = []
  /** Texts prepared for the measure, only those a query got as far as comparing (a store's worth would not fit in memory). */
  private readonly keys: (NearDuplicateKey | undefined)[] = []
  private readonly postings = new Map<string, number[]>()
  /** Shared units per slot while one query runs; `touched` names the cells to clear after it. */
  private counts = new Int32Array(64)
  private readonly threshold: number
  private readonly commonCap: number

  constructor(threshold = NEAR_DUPLICATE_THRESHOLD, commonCap = 2000) {
    this.threshold = threshold
    this.commonCap = commonCap
  }

  add(id: string, text: string): void {
    let slot = this.slotOf.get(id)
    if (slot === undefined) {
      slot = this.ids.length
      this.slotOf.set(id, slot)
      this.ids.push(id)
    }
    this.texts[slot] = text
    this.keys[slot] = undefined
    for (const unit of new Set(units(normalise(text)))) {
      const list = this.postings.get(unit)
      if (list === undefined) this.postings.set(unit, [slot])
      else list.push(slot)
    }
  }

  /** The most similar text added so far at or above the threshold. */
  find(text: string): { id: string; similarity: number } | undefined {
    const query = nearDuplicateKey(text)
    // The same distinct units the measure's substitution guard reads: made once, kept on the key.
    const distinct = (query.unitSet = new Set(query.units))
    if (distinct.size === 0) return undefined
    if (this.counts.length < this.ids.length) this.counts = new Int32Array(Math.max(this.ids.length, this.counts.length * 2))
    const counts = this.counts
    const touched: number[] = []
    let usable = 0
    for (const unit of distinct) {
      const list = this.postings.get(unit)
      if (list === undefined || list.length > this.commonCap) continue
      usable++
      for (const slot of list) if (counts[slot]!++ === 0) touched.push(slot)
    }
    const need = Math.max(1, Math.ceil(usable / 2))
    const candidates: number[] = []
    for (const slot of touched) {
      if (counts[slot]! >= need) candidates.push(slot)
      counts[slot] = 0
    }
    let best: { id: string; similarity: number } | undefined
    for (const slot of candidates) {
      const s = similarityOf(query, this.keyOf(slot))
      if (s >= this.threshold && (best === undefined || s > best.similarity)) best = { id: this.ids[slot]!, similarity: s }
    }
    return best
  }

  private keyOf(slot: number): NearDuplicateKey {
    let key = this.keys[slot]
    if (key === undefined) {
      key = nearDuplicateKey(this.texts[slot]!)
      this.keys[slot] = key
    }
    return key
  }
}

import { charCount, clip, fitWithinBudget, frameOverhead, promptSafe } from '../prompt/index.ts'
import { sourceLabel, type RecalledEntry } from '../recall/index.ts'
import { nearDuplicateKey, similarityOf, NEAR_DUPLICATE_THRESHOLD, type NearDuplicateKey } from '../memory/near-duplicate.ts'
import { framed } from '../prompt/index.ts'

/** One hit as the block shows it. */
interface ShownHit {
  id: string
  /** The text as the model reads it (neutralised, maybe shortened), without the line's source label. */
  text: string
  score: number
  /** An imported entry's source_ref, as imported; null for the rest. */
  source_ref: string | null
  /** Where it comes from: the day of an entry, 锚·…, 梦境 …, 月响 …, 年轮 …. */
  source: string
  truncated: boolean
}

export interface RecallBlock {
  text: string
  shown: number
  /** Hits shortened or left out to stay within the budget. */
  cut: number
  /** What the block shows, in order: what `cyrene memory recall` prints. */
  hits: ShownHit[]
  /** Hits left out because `{{cyrene_memory}}` already shows them, or a near-duplicate ranked above them. */
  skipped: { id: string; why: 'in-memory-block' | 'near-duplicate' }[]
}

export interface RecallBlockOptions {
  /** Ids `{{cyrene_memory}}` shows in the same step (MemoryBlockResult.ids). */
  exclude?: Iterable<string>
}

/** The pre-step's defaults (CONTRACT#budgets: the hit block ≤ 1,000); the preset row's config and `cyrene memory recall` both start from these. */
export const RECALL_DEFAULTS = { maxChars: 1000, perEntryMax: 300, limit: 8 } as const

const RECALL_TITLE = '记忆命中'
/** `- ` before each line and the newline after it. */
const LINE_OVERHEAD = charCount('- ') + 1

/** A step's hits with what does not depend on the budget done: deduplicated, neutralised, near-duplicates left out, each cut to `perEntryMax`. */
export interface PreparedHits {
  candidates: { hit: RecalledEntry; label: string; text: string; long: boolean }[]
  skipped: RecallBlock['skipped']
  blank: number
}

/** The near-duplicate keys of texts shown lately, most recent last: the same memories come back turn after turn. */
const keysKept = new Map<string, NearDuplicateKey>()
const KEYS_KEPT = 512

function keyOf(text: string): NearDuplicateKey {
  let key = keysKept.get(text)
  if (key !== undefined) keysKept.delete(text)
  else key = nearDuplicateKey(text)
  keysKept.set(text, key)
  if (keysKept.size > KEYS_KEPT) keysKept.delete(keysKept.keys().next().value!)
  return key
}

/** The half of `recallBlock` that needs no budget: the budget pass sizes one block several times, this runs once. */
export function prepareHits(hits: readonly RecalledEntry[], perEntryMax: number, opts: RecallBlockOptions = {}): PreparedHits {
  const exclude = new Set(opts.exclude ?? [])
  const skipped: RecallBlock['skipped'] = []
  const seen = new Set<string>()
  const candidates: PreparedHits['candidates'] = []
  const keys: ReturnType<typeof nearDuplicateKey>[] = []
  let blank = 0
  for (const hit of hits) {
    if (seen.has(hit.id)) continue
    seen.add(hit.id)
    if (exclude.has(hit.id)) {
      skipped.push({ id: hit.id, why: 'in-memory-block' })
      continue
    }
    const text = promptSafe(hit.text)
    if (text === '') {
      blank++
      continue
    }
    // A hit's whole text against the kept hits' texts as shown, each of those prepared once.
    const key = keyOf(text)
    if (keys.some((k) => similarityOf(k, key) >= NEAR_DUPLICATE_THRESHOLD)) {
      skipped.push({ id: hit.id, why: 'near-duplicate' })
      continue
    }
    // perEntryMax limits the memory's own text; the source label comes on top.
    const short = clip(text, perEntryMax, { trimEnd: true })
    keys.push(short === text ? key : keyOf(short))
    candidates.push({ hit, label: promptSafe(sourceLabel(hit.area, hit.date, hit.id)), text: short, long: short !== text })
  }
  return { candidates, skipped, blank }
}

/**
 * Pure: the pre-step message for a message's memory hits, within `maxChars`
 * (frame header and closing marker included) — the one function the pre-step
 * and `cyrene memory recall` both use, so the command line prints exactly what
 * a turn injects. Each hit is neutralised (`promptSafe`: one line, no frame
 * brackets, no hidden comments) before it is measured. A hit `{{cyrene_memory}}`
 * already shows, and a hit that is a near-duplicate of one ranked above it,
 * are left out (CONTRACT#never-twice). Each line names its source.
 */
export function recallBlock(hits: readonly RecalledEntry[], maxChars: number, perEntryMax: number, opts: RecallBlockOptions = {}): RecallBlock {
  return fitHits(prepareHits(hits, perEntryMax, opts), maxChars)
}

/** The half of `recallBlock` that fits prepared hits within `maxChars`. */
export function fitHits({ candidates, skipped, blank }: PreparedHits, maxChars: number): RecallBlock {
  if (candidates.length === 0) return { text: '', shown: 0, cut: blank, hits: [], skipped: [...skipped] }
  // Lines are joined by newlines inside the frame: +1 per line covers them (the frame counts its own two).
  const room = maxChars - frameOverhead(RECALL_TITLE) + 1
  const fit = fitWithinBudget(candidates, (c) => `${c.label} ${c.text}`, room, { overheadPerItem: LINE_OVERHEAD, trimEnd: true })
  const cut = fit.cut.length + blank + fit.picked.filter((p) => p.item.long && !p.truncated).length
  if (fit.picked.length === 0) return { text: '', shown: 0, cut, hits: [], skipped: [...skipped] }
  const lines = fit.picked.map((p) => `- ${p.text}`)
  const shown = fit.picked.map((p): ShownHit => ({
    id: p.item.hit.id,
    text: p.text.slice(p.item.label.length + 1),
    score: p.item.hit.score,
    source_ref: p.item.hit.sourceRef ?? null,
    source: p.item.label,
    truncated: p.truncated || p.item.long,
  }))
  return { text: framed(RECALL_TITLE, lines.join('\n')), shown: lines.length, cut, hits: shown, skipped: [...skipped] }
}

import { charCount } from '../prompt/index.ts'
import { ONE_SHOT_OPEN, RecallKeeper, sourceLabel, type RecalledEntry, type RecallSilence } from '../recall/index.ts'
import { MemoryReader } from '../host/memory-reader.ts'
import { MEMORY_DEFAULTS } from '../host/memory-block.ts'
import { RECALL_DEFAULTS, recallBlock, type RecallBlock } from '../rails/index.ts'
import { CliError, type CliIO } from './io.ts'
import { say } from './help-text.ts'
import { guarded, openStore, out, type StoreOptions } from './memory-shared.ts'
import { recallSilenceText } from '../i18n/recall.ts'
import { DEFAULT_LANG, t, tKey, type Lang } from '../i18n/index.ts'

export interface RecallOptions extends StoreOptions {
  k: string
  budget: string
}

/** The option defaults, shown in `--help`: the pre-step's own. */
export const RECALL_OPTION_DEFAULTS = { k: String(RECALL_DEFAULTS.limit), budget: String(RECALL_DEFAULTS.maxChars) }

/**
 * `cyrene memory recall "<query>"`: exactly the memory hits a turn would inject
 * for that message — the same index (recall/keeper.ts), the same ranking,
 * the same block (rails/recall-block.ts `recallBlock`, which the pre-step
 * calls), leaving out what `{{cyrene_memory}}` shows right now — within the
 * budget. `--json`: `{"hits":[{"id","text","source_ref","score","source","shown_in"}],"chars"}`, plus
 * `"silence":{"reason","text"}` when the block would be empty (why: abstain.ts's reasons, or `left-out`).
 * The hits are everything the turn puts before the model about the message, in rank order: the
 * block's (`shown_in: "block"`) and those `{{cyrene_memory}}` already shows in full
 * (`"cyrene_memory"`), so a memory written today is not reported as not found (decision 087).
 */
export async function recallCommand(o: RecallOptions, args: string[], io: CliIO): Promise<number> {
  const query = args.join(' ')
  if (query.trim() === '') throw new CliError(say(io, 'store.recall.noQuery'), 2)
  const k = wholeNumber(o.k, '--k', 1, io)
  const budget = wholeNumber(o.budget, '--budget', 0, io)
  const store = await openStore(io, o.root)
  const { block, carried, silence } = await guarded(io, async () => {
    const keeper = await RecallKeeper.open(store.root, ONE_SHOT_OPEN)
    const now = store.now()
    const hits = await keeper.search(query, k, { now })
    const shown = new MemoryReader(store.root, MEMORY_DEFAULTS.recentDays, MEMORY_DEFAULTS.memoryChars).read(now).ids
    const block = recallBlock(hits, budget, RECALL_DEFAULTS.perEntryMax, { exclude: shown })
    return { block, carried: carriedHits(hits, block, shown), silence: block.hits.length > 0 ? undefined : (keeper.lastSilence ?? LEFT_OUT) }
  })
  const chars = charCount(block.text)
  const json = { hits: carried, chars }
  out(io, o.json, silence === undefined ? json : { ...json, silence }, () => human(block, chars, budget, silence, io.lang ?? DEFAULT_LANG))
  return 0
}

/** One hit as `--json` reports it, with where the turn shows it. */
interface CarriedHit {
  id: string
  text: string
  source_ref: string | null
  score: number
  source: string
  shown_in: 'block' | 'cyrene_memory'
}

/** What the turn shows the model of the ranked hits, in rank order, and where: the block, or `{{cyrene_memory}}` before it. */
function carriedHits(ranked: readonly RecalledEntry[], block: RecallBlock, shownInVariable: readonly string[]): CarriedHit[] {
  const inBlock = new Map(block.hits.map((h) => [h.id, h]))
  const inVariable = new Set(shownInVariable)
  const carried: CarriedHit[] = []
  for (const hit of ranked) {
    const shown = inBlock.get(hit.id)
    if (shown !== undefined)
      carried.push({ id: shown.id, text: shown.text, source_ref: shown.source_ref, score: shown.score, source: shown.source, shown_in: 'block' })
    else if (inVariable.has(hit.id))
      carried.push({
        id: hit.id,
        text: hit.text,
        source_ref: hit.sourceRef ?? null,
        score: hit.score,
        source: sourceLabel(hit.area, hit.date, hit.id),
        shown_in: 'cyrene_memory',
      })
  }
  return carried
}

/** Nothing injected although the index found hits: each was shown already, a near-duplicate, or outside the budget. */
const LEFT_OUT: RecallSilence = {
  reason: 'left-out',
  text: 'the hits found are already in {{cyrene_memory}}, near-duplicates of each other, or do not fit the budget',
}

function human(block: RecallBlock, chars: number, budget: number, silence: RecallSilence | undefined, lang: Lang): string {
  // tKey: the texts name {{cyrene_memory}}, which is not a parameter.
  const skipped = block.skipped.map((s) => tKey(s.why === 'in-memory-block' ? 'recall.cli.inBlock' : 'recall.cli.duplicate', lang, { id: s.id }))
  if (block.text === '')
    return (
      [
        silence === undefined
          ? t('recall.cli.nothing', lang, { budget })
          : t('recall.cli.nothingBecause', lang, { budget, why: recallSilenceText(silence, lang) }),
        ...skipped,
      ].join('\n') + '\n'
    )
  const cut = block.cut > 0 ? t('recall.cli.cut', lang, { n: block.cut }) : ''
  return [block.text, '', t('recall.cli.hits', lang, { n: block.shown, chars, budget }) + cut, ...skipped].join('\n') + '\n'
}

function wholeNumber(v: string, name: string, min: number, io: CliIO): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < min) throw new CliError(say(io, 'store.wholeNumber', { name, min }), 2)
  return n
}

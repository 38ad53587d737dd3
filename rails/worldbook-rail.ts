import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import { resolveRoot } from '../memory/paths.ts'
import { charCount } from '../prompt/index.ts'
import { noteWorldbook, type WorldbookNote } from './report.ts'
import {
  HITS_CAP,
  matchEntries,
  RAIL_CAP,
  renderBlock,
  renderRail,
  WorldbookLibrary,
  worldbookFolders,
  type EntryHit,
  type LoadedWorldbook,
  type Rendered,
} from '../worldbook/index.ts'
import type { BlockSpec, RailSpec, PassBlock, WorldbookBlocks } from './types.ts'

/**
 * The worldbook in a step (CONTRACT#worldbook): the constant entries as the 140
 * context (stable between steps: it changes only when a file does), and the
 * keyword entries the person's last messages call up as one pre-step message.
 * Both are `PassBlock`s, so the 4,000 budget pass can trim them like any
 * other block; until it takes them, each is held to its own cap here.
 */

/** The caps live beside the renderer (worldbook/render.ts) so the importer can measure against them. */
export { RAIL_CAP, HITS_CAP }
export const HITS_MAX_ENTRIES = 8
/** Budgets whose rail text is kept per loaded worldbook (the pass asks a handful of sizes). */
const RENDERINGS_KEPT = 8
/** Lower is trimmed first by the budget pass (its one table, CONTRACT#budget-pass): the hits of one step go before the standing rail. */
export const RAIL_PRIORITY = 30
export const HITS_PRIORITY = 10

/** Rail 140: mounted where the preset turns it on and the row built its blocks (`worldbookBlocks`). */
export const worldbookSpec: RailSpec = {
  id: 'rail:worldbook',
  channel: 'rail',
  context: 'cyrene:worldbook',
  order: 140,
  priority: RAIL_PRIORITY,
  cap: RAIL_CAP,
  switch: { key: 'worldbook', label: '世界书轨道 (order 140)' },
  enabled: (config) => config.rails.worldbook && config.worldbook !== undefined,
  block: (step) => step.config.worldbook?.rail(step.agent),
}

/** The keyword hits of one step: the first block the pass trims. */
export const worldbookHitsSpec: BlockSpec = { id: 'step:worldbook', channel: 'pre-step', priority: HITS_PRIORITY, cap: HITS_CAP }

export interface WorldbookConfig {
  /** How many of the person's latest messages the keys are looked for in (1–3). */
  recentMessages: number
  railChars: number
  hitChars: number
  hitEntries: number
}

const DEFAULT_WORLDBOOK: WorldbookConfig = { recentMessages: 2, railChars: RAIL_CAP, hitChars: HITS_CAP, hitEntries: HITS_MAX_ENTRIES }

/**
 * The rail's renderings of one loaded worldbook, by budget. The library hands back the same
 * object while no file changed, and rendering is pure, so a step whose files and budget are
 * the last step's reuses its text instead of neutralising every entry again.
 */
const railRenderings = new WeakMap<LoadedWorldbook, Map<number, Rendered>>()

/** The 140 rail: the constant entries by priority, whole, within `min(max, cap)`. */
export function worldbookRail(book: LoadedWorldbook, config: WorldbookConfig = DEFAULT_WORLDBOOK): PassBlock & { rendered(max?: number): Rendered } {
  const cap = Math.min(config.railChars, RAIL_CAP)
  let byBudget = railRenderings.get(book)
  if (byBudget === undefined) railRenderings.set(book, (byBudget = new Map()))
  const rendered = (max = cap): Rendered => {
    const budget = Math.min(max, cap)
    let kept = byBudget.get(budget)
    if (kept === undefined) {
      kept = renderRail(book.entries, budget)
      if (byBudget.size >= RENDERINGS_KEPT) byBudget.clear()
      byBudget.set(budget, kept)
    }
    return kept
  }
  return { id: worldbookSpec.id, channel: 'rail', priority: RAIL_PRIORITY, cap, render: (max) => rendered(max).text, rendered }
}

/** The pre-step block: keyword entries called up by `messages` (the person's latest, oldest first). */
export function worldbookHits(
  book: LoadedWorldbook,
  messages: readonly string[],
  config: WorldbookConfig = DEFAULT_WORLDBOOK,
): PassBlock & { hits: EntryHit[]; rendered(max?: number): Rendered } {
  const cap = Math.min(config.hitChars, HITS_CAP)
  const limit = Math.min(config.hitEntries, HITS_MAX_ENTRIES)
  const hits = matchEntries(book.entries, messages)
  const rendered = (max = cap) =>
    renderBlock(
      'hits',
      hits.map((h) => h.entry),
      Math.min(max, cap),
      limit,
    )
  return { id: worldbookHitsSpec.id, channel: 'pre-step', priority: HITS_PRIORITY, cap, hits, render: (max) => rendered(max).text, rendered }
}

interface MessageLike {
  id?: unknown
  source?: { kind?: string }
  content?: unknown
}

function typedText(m: MessageLike): string {
  if (m.source?.kind !== 'user' || !Array.isArray(m.content)) return ''
  return (m.content as { type?: string; text?: unknown }[])
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n')
    .trim()
}

/**
 * The texts of the person's last `n` messages (what they typed; plugin
 * notices, tool results and the model's replies left out), oldest first:
 * the session's history, then the step's new messages.
 */
export function recentUserTexts(history: readonly MessageLike[], fresh: readonly MessageLike[], n: number): string[] {
  const want = Math.max(1, Math.min(3, Math.floor(n)))
  const seen = new Set<unknown>()
  const newest: string[] = []
  // From the newest back, so a long session costs only as far back as the last few messages.
  for (const list of [fresh, history]) {
    for (let i = list.length - 1; i >= 0 && newest.length < want; i--) {
      const m = list[i]!
      if (m.id !== undefined) {
        if (seen.has(m.id)) continue
        seen.add(m.id)
      }
      const text = typedText(m)
      if (text !== '') newest.push(text)
    }
  }
  return newest.reverse()
}

/** How many recent hits the doctor keeps. */
const KEEP_HITS = 3

/**
 * The worldbook of one preset row as the steps see it: the folders (found from
 * the host service's store root, else DSH_HOME), one look at the files per step
 * — DSH assembles an agent's prompt right before that agent's pre-step, so the
 * assembly looks and the pre-step takes what it saw — and what happened, for
 * the doctor. The budget pass builds its blocks from `forStep` / `look` with
 * `worldbookRail` and `worldbookHits`.
 */
class WorldbookState {
  readonly note: WorldbookNote = { hits: [] }
  private readonly ctx: Context
  private library: WorldbookLibrary | undefined
  private readonly seenAtAssembly = new WeakMap<object, LoadedWorldbook>()

  constructor(ctx: Context) {
    this.ctx = ctx
  }

  /** The files now (stamps compared, changed files re-read); remembered for `agent`'s pre-step. */
  look(agent?: object): LoadedWorldbook {
    if (this.library === undefined) {
      let root: string | undefined
      try {
        const rootDir = this.ctx.get('cyreneMemory')?.config.rootDir
        root = resolveRoot({ rootDir: rootDir === '' ? undefined : rootDir, env: process.env })
      } catch (error) {
        this.note.rootError = `the store root cannot be found (${(error as Error).message}): only the starter worldbook is used`
      }
      this.library = new WorldbookLibrary(worldbookFolders(root))
    }
    const book = this.library.current()
    if (agent !== undefined) this.seenAtAssembly.set(agent, book)
    return book
  }

  /** What `agent`'s assembly of this step saw (taken once), else a fresh look. */
  forStep(agent: object): LoadedWorldbook {
    const book = this.seenAtAssembly.get(agent)
    this.seenAtAssembly.delete(agent)
    return book ?? this.look()
  }

  /** Keeps the note for this host's doctor (rails/report.ts), where `/cyrene doctor` reads it. */
  publish(): void {
    try {
      noteWorldbook(this.ctx.get('cyreneMemory'), this.note)
    } catch {
      /* the doctor misses one update; the turn goes on */
    }
  }
}

/**
 * The worldbook as the 4,000 pass (rails/row.ts) takes it: the 140 rail from
 * one look at the files per assembly, and the keyword hits of a step that
 * brings the person's words, from the last `recentMessages` of them. The pass
 * mounts the 140 context and sends the hits; what was seen goes to the doctor.
 */
export function worldbookBlocks(ctx: Context, config: WorldbookConfig): WorldbookBlocks {
  const state = new WorldbookState(ctx)
  const note = state.note
  return {
    rail(agent) {
      try {
        const block = worldbookRail(state.look(agent), config)
        const rail = block.rendered()
        note.rail = { chars: charCount(rail.text), shown: rail.shown.length, leftOut: rail.leftOut.map((l) => l.name) }
        note.railError = undefined
        state.publish()
        return block
      } catch (error) {
        note.railError = `the 140 rail failed, the step went on without it: ${(error as Error).message}`
        state.publish()
        return undefined
      }
    },
    step(agent, latest) {
      try {
        const history = agent?.session.deriveMessages() ?? []
        const texts = recentUserTexts(history, [], config.recentMessages)
        // The person's newest words may not be in the session's messages yet at assembly.
        if (texts.at(-1) !== latest) texts.push(latest)
        const block = worldbookHits(state.forStep(agent ?? {}), texts.slice(-config.recentMessages), config)
        const rendered = block.rendered()
        note.hitsError = undefined
        if (rendered.text === '') return undefined
        note.hits = [{ at: new Date().toISOString(), shown: rendered.shown, leftOut: rendered.leftOut.map((l) => `${l.name} (${l.why})`) }, ...note.hits].slice(
          0,
          KEEP_HITS,
        )
        state.publish()
        return block
      } catch (error) {
        note.hitsError = `the worldbook hits failed, the step went on without them: ${(error as Error).message}`
        state.publish()
        return undefined
      }
    },
  }
}

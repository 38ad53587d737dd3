import { captureActive, configFromText, inboxBlocksAllowed, type WhaleConfig } from './config.ts'
import { injectable, replayInbox, selectRelevant, splitLines, type ConfirmVouch } from './inbox.ts'
import { budgetNote, isOverBudget, measureParts, type Measure, type PartKey } from './measure.ts'
import { disciplineBlock, inboxDataBlock } from './memory-blocks.ts'
import { inboxFileOf } from './paths.ts'
import { personaBlocks } from './persona-block.ts'
import { sinkRoutes } from './sinks.ts'
import { suffixText, thinkingSegment } from './thinking.ts'

/** Everything rendering needs, as plain data; files.ts builds it from disk. */
export interface RenderInput {
  /** The config file's text; `null` when it is missing or unreadable. */
  configText: string | null
  /** The inbox file's text; `null` when it is missing or unreadable. */
  inboxText: string | null
  /** The config dir (as given, not resolved): default inbox and relative sink targets derive from it. */
  configDir: string
  model?: string
  /** The host's working directory: fills `{{cwd}}` and picks project-tagged memories. */
  cwd?: string
  /** The per-session capture switch of spec §3.4. */
  sessionCapture?: boolean
  /** The host's check that a confirmation was the person's (CONTRACT#whale-confirms); absent, the spec's replay as written. */
  vouch?: ConfirmVouch
}

export interface RenderedSegments {
  /** deployment:persona-prefix */
  prefix: string
  /** whale:thinking-language */
  thinking: string
  /** deployment:persona-suffix, budget reminder included */
  suffix: string
  measure: Measure
  captureActive: boolean
}

export const EMPTY_SEGMENTS: RenderedSegments = Object.freeze({
  prefix: '',
  thinking: '',
  suffix: '',
  captureActive: false,
  measure: measureParts({ persona: '', inbox: '', discipline: '', suffix: '', thinking: '' }, { enabled: false, max: 0, warnInPrompt: true }, 0),
})

/**
 * The three segments, re-evaluated from the given file contents. Pure and
 * total: any failure degrades to "no persona" (all segments empty) rather
 * than reaching the caller (spec §2.6).
 */
export function renderSegments(input: RenderInput): RenderedSegments {
  try {
    return renderUnguarded(input)
  } catch {
    return EMPTY_SEGMENTS
  }
}

function memoryParts(config: WhaleConfig, input: RenderInput, cwd: string, active: boolean): { inbox: string; discipline: string } {
  if (!inboxBlocksAllowed(config)) return { inbox: '', discipline: '' }
  const entries = input.inboxText === null ? [] : replayInbox(splitLines(input.inboxText), input.vouch)
  const chosen = selectRelevant(injectable(entries, config.memory.requireConfirm), config.memory.maxEntries, cwd)
  const inbox = inboxDataBlock(chosen, config.persona.userName)
  const discipline = active ? disciplineBlock(config, inboxFileOf(config.memory, input.configDir), sinkRoutes(config.memory.sinks, input.configDir)) : ''
  return { inbox, discipline }
}

/** The rendering without the safety net; exported so tests can prove it has no crash path of its own. */
export function renderUnguarded(input: RenderInput): RenderedSegments {
  const config = configFromText(input.configText)
  const model = input.model ?? ''
  const cwd = input.cwd ?? ''
  const active = captureActive(config, input.sessionCapture === true)

  const persona = personaBlocks(config, model).join('\n\n')
  const memory = memoryParts(config, input, cwd, active)
  // blocks are joined by one blank line; each separator is counted with the
  // block that follows it, so the parts add up to exactly what is injected
  let prefix = ''
  const sized: Record<PartKey, string> = { persona: '', inbox: '', discipline: '', suffix: '', thinking: '' }
  for (const [key, text] of [
    ['persona', persona],
    ['inbox', memory.inbox],
    ['discipline', memory.discipline],
  ] as const) {
    if (!text) continue
    const piece = prefix ? '\n\n' + text : text
    sized[key] = piece
    prefix += piece
  }
  sized.suffix = suffixText(config, cwd)
  sized.thinking = thinkingSegment(config)

  let suffix = sized.suffix
  let noteChars = 0
  const preliminary = measureParts(sized, config.budget, 0)
  if (config.budget.warnInPrompt && isOverBudget(preliminary.total, config.budget)) {
    // no leading blank line when the suffix is empty (spec wins over the reference)
    const note = (suffix ? '\n' : '') + budgetNote(preliminary.total, config.budget.max, config.persona.userName)
    suffix += note
    noteChars = note.length
  }
  return { prefix, thinking: sized.thinking, suffix, measure: measureParts(sized, config.budget, noteChars), captureActive: active }
}

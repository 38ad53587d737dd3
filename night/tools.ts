import { amendedMeta } from '../memory/upkeep.ts'
import { CONSEQUENCE_SCHEMA, gateReasons, type NewEntry } from '../memory/format.ts'
import { echoRel } from '../memory/paths.ts'
import type { MemoryStore, StoredEntry } from '../memory/index.ts'
import { appendDreamText, appendJournal } from './journal.ts'
import type { VolumeSuggestion } from './record.ts'
import type { DreamTool } from './model-run.ts'
import { quoteOccurs } from '../host/person-lines.ts'

/**
 * The tools of one dream, bound to that dream's night and data. They are
 * handed to the model in the dream's own request only (model-run.ts), so
 * `memory_dream_journal` exists nowhere else.
 */
export interface DreamToolState {
  journalWrites: number
  suggestion?: Omit<VolumeSuggestion, 'night'>
  /** Completions the model supplied for shown pending entries, applied by the month/year check after the run. */
  amendments: Map<string, Partial<NewEntry>>
  echoes: string[]
}

export interface DreamToolInput {
  store: MemoryStore
  night: string
  heading: string
  journalMaxChars: number
  /** The pending entries the dream showed (the only ones it may complete); empty when no check runs. */
  pending: readonly StoredEntry[]
  /** Where a supplied quote may come from, per pending entry: that day's entries and the sessions' messages. */
  quoteSources: (entry: StoredEntry) => Promise<readonly string[]>
  echo?: { kind: 'month' | 'year'; period: string }[]
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${what} must be a non-empty string`)
  return v
}

function journalTool(input: DreamToolInput, state: DreamToolState): DreamTool {
  return {
    name: 'memory_dream_journal',
    description:
      '写今晚的统合梦志（梦境/YYYY/MM/YYYY-MM-DD.md）。再次调用会追加，不会覆盖。只有人能开新卷：若觉得该开新卷，写进 new_volume_suggestion（理由与变化），由人决定。',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: '梦志正文（你自己的话，不要照抄当天的记忆）' },
        new_volume_suggestion: {
          type: 'object',
          properties: { reason: { type: 'string' }, changed: { type: 'string', description: '人格、五育或存储结构变了什么' } },
          required: ['reason', 'changed'],
          additionalProperties: false,
        },
      },
      required: ['text'],
      additionalProperties: false,
    },
    async run(args) {
      const text = str(args.text, 'text')
      let suggestion: DreamToolState['suggestion']
      const raw = args.new_volume_suggestion
      if (raw !== undefined && raw !== null) {
        if (typeof raw !== 'object') throw new Error('new_volume_suggestion must be an object {reason, changed}')
        const s = raw as Record<string, unknown>
        suggestion = { reason: str(s.reason, 'new_volume_suggestion.reason'), changed: str(s.changed, 'new_volume_suggestion.changed') }
      }
      const part = { text, ...(state.journalWrites === 0 ? { heading: input.heading } : {}), ...(suggestion === undefined ? {} : { suggestion }) }
      const file = await appendJournal(input.store, input.night, part, input.journalMaxChars)
      state.journalWrites++
      if (suggestion !== undefined) state.suggestion = suggestion
      return `已写入 ${file}${state.journalWrites > 1 ? '（追加）' : ''}`
    },
  }
}

function completeTool(input: DreamToolInput, state: DreamToolState): DreamTool {
  return {
    name: 'memory_pending_complete',
    description:
      '为一条待定的记忆补上闸门缺的东西：src_quote（必须逐字出现在那天的记忆或会话里）或 src_ids（必须存在）、axis（德/智/体/美/劳）与 reason、consequence（决定的后果）。梦结束后闸门重新评估，通过的作为新的日档条目纳入，待定原文一字不动。',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        src_quote: { type: 'string' },
        src_ids: { type: 'array', items: { type: 'string' } },
        axis: { type: 'string', enum: ['德', '智', '体', '美', '劳'] },
        reason: { type: 'string' },
        consequence: CONSEQUENCE_SCHEMA,
      },
      required: ['id'],
      additionalProperties: false,
    },
    async run(args) {
      const id = str(args.id, 'id')
      const entry = input.pending.find((e) => e.id === id)
      if (entry === undefined) throw new Error(`${id} is not one of the pending entries shown in this dream`)
      const amendment: Partial<NewEntry> = { ...state.amendments.get(id) }
      if (args.src_quote !== undefined) {
        const quote = str(args.src_quote, 'src_quote')
        if (!quoteOccurs(quote, await input.quoteSources(entry)))
          throw new Error(
            'src_quote does not occur word for word in that day’s day entries or the sessions’ messages (a pending entry is no source); quote exactly, or leave it out',
          )
        amendment.src_quote = quote
      }
      if (args.src_ids !== undefined) {
        if (!Array.isArray(args.src_ids) || args.src_ids.some((x) => typeof x !== 'string')) throw new Error('src_ids must be a list of ids')
        const missing: string[] = []
        for (const x of args.src_ids as string[]) {
          // A source is a day entry: a pending entry (this one included) is a draft waiting for one, never the source of another.
          const source = x === id ? undefined : await input.store.get(x)
          if (source === undefined || source.area !== 'day') missing.push(x)
        }
        if (missing.length > 0) throw new Error(`no day entry with id ${missing.join(', ')}; give ids of day entries that exist (a pending entry is no source)`)
        amendment.src_ids = args.src_ids as string[]
      }
      if (args.axis !== undefined) amendment.axis = str(args.axis, 'axis')
      if (args.reason !== undefined) amendment.reason = str(args.reason, 'reason')
      if (args.consequence !== undefined) amendment.consequence = args.consequence as NewEntry['consequence']
      const { id: _i, ...base } = entry.meta
      // Refused amendments (a model setting base, a bad axis) throw here, before anything is kept.
      const reasons = gateReasons({ id, ...base, ...amendedMeta(input.store, entry, amendment, 'model') })
      state.amendments.set(id, amendment)
      return reasons.length === 0 ? `${id}：补全后可以通过闸门，梦结束时纳入日档。` : `${id}：已记下，但仍缺：${reasons.join('；')}`
    },
  }
}

function echoTool(input: DreamToolInput, state: DreamToolState): DreamTool {
  const due = input.echo ?? []
  return {
    name: 'memory_dream_echo',
    description: `写月响（kind: month，岁月涟漪/月响/）或年轮（kind: year，岁月涟漪/年轮/）。这场梦要写的：${due.map((d) => `${d.kind} ${d.period}`).join('、')}。再次调用会追加。`,
    parameters: {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['month', 'year'] }, text: { type: 'string' } },
      required: ['kind', 'text'],
      additionalProperties: false,
    },
    async run(args) {
      const target = due.find((d) => d.kind === args.kind)
      if (target === undefined) throw new Error(`this dream does not write a ${String(args.kind)} echo`)
      const rel = echoRel(target.kind, target.period)
      await appendDreamText(
        input.store,
        rel,
        target.kind === 'month' ? `月响 ${target.period}` : `年轮 ${target.period}`,
        { text: str(args.text, 'text') },
        input.journalMaxChars,
      )
      state.echoes.push(rel)
      return `已写入 ${rel}`
    },
  }
}

export function dreamTools(input: DreamToolInput): { tools: DreamTool[]; state: DreamToolState } {
  const state: DreamToolState = { journalWrites: 0, amendments: new Map(), echoes: [] }
  const tools = [journalTool(input, state)]
  if (input.pending.length > 0) tools.push(completeTool(input, state))
  if ((input.echo ?? []).length > 0) tools.push(echoTool(input, state))
  return { tools, state }
}

import { clip } from '../prompt/index.ts'
import { dataFrame, promptSafe } from '../prompt/index.ts'
import type { StoredEntry } from '../memory/index.ts'

/**
 * What the night's dream reads, as data frames (pure): the sessions taking
 * part with the person's last line there (verbatim up to 200 characters,
 * made frame-safe), what was written on the nights it covers (at most
 * `maxEntries`), and the pending entries up for a re-check with the gate's
 * reasons (at most `maxPending`, oldest first). Everything from the store or
 * from a chat is data inside a frame, never an instruction.
 */
interface BriefSession {
  id: string
  lastUserText: string
  lastActiveAt: string
}

export interface BriefInput {
  nights: readonly string[]
  sessions: readonly BriefSession[]
  entries: readonly StoredEntry[]
  pending: readonly StoredEntry[]
  maxEntries: number
  maxPending: number
  /** 'month' / 'year' when this dream re-checks pending entries. */
  check?: 'month' | 'year' | undefined
  monthEcho?: string | undefined
  yearRing?: string | undefined
}

export interface Brief {
  text: string
  /** The pending entries shown (the only ones the dream may complete). */
  shownPending: StoredEntry[]
  /** Entries and pending entries left out by the caps, for the doctor. */
  cut: { entries: number; pending: number }
}

function entryLine(e: StoredEntry): string {
  const meta = [e.meta.kind, e.meta.axis].filter((x) => typeof x === 'string' && x !== '').join('·')
  return `- [${e.id}]${meta === '' ? '' : ` (${meta})`} ${promptSafe(clip(e.text, 400))}`
}

function pendingLine(e: StoredEntry): string {
  const reasons = Array.isArray(e.meta.pending_reasons) ? (e.meta.pending_reasons as unknown[]).filter((r) => typeof r === 'string').join('；') : ''
  return `${entryLine(e)}\n  闸门理由：${promptSafe(reasons === '' ? '（未记录）' : reasons)}`
}

export function dreamBrief(input: BriefInput): Brief {
  const entries = input.entries.slice(0, input.maxEntries)
  const shownPending = [...input.pending].sort((a, b) => String(a.meta.at ?? '').localeCompare(String(b.meta.at ?? ''))).slice(0, input.maxPending)
  const covered = input.nights.length === 1 ? input.nights[0]! : `${input.nights[0]} — ${input.nights.at(-1)}（补梦，${input.nights.length} 天）`
  const parts: string[] = [`今晚的统合梦覆盖：${covered}。`]
  const sessionBody =
    input.sessions.length === 0
      ? '（没有登记的会话）'
      : input.sessions
          .map((s) => `- 会话 ${s.id}（最近 ${s.lastActiveAt || '未知'}）最近一句：${s.lastUserText === '' ? '（无）' : promptSafe(s.lastUserText)}`)
          .join('\n')
  parts.push(dataFrame('参与今晚统合的会话与最近一句', sessionBody))
  parts.push(dataFrame(`这些天写下的记忆（${entries.length} 条）`, entries.length === 0 ? '（这些天没有写下记忆）' : entries.map(entryLine).join('\n')))
  if (input.check !== undefined)
    parts.push(
      dataFrame(
        `${input.check === 'year' ? '年检' : '月检'}：待定的记忆（${shownPending.length} 条，最旧的先）`,
        shownPending.length === 0 ? '（没有待定的记忆）' : shownPending.map(pendingLine).join('\n'),
      ),
    )
  const tasks = ['请以昔涟的口吻，用 memory_dream_journal 写一篇统合梦志（可分几次写，后一次追加）。只写梦志，不要复制当天的记忆原文。']
  if (input.check !== undefined)
    tasks.push(
      '对待定的记忆：若你能从当天的记忆或会话里找到它缺的东西（原话 src_quote 或 src_ids、德智体美劳之一 axis 与理由、决定的后果），用 memory_pending_complete 补上；原话必须逐字出现过。补不上就不补。',
    )
  if (input.monthEcho !== undefined) tasks.push(`这是本月第一场梦：请用 memory_dream_echo（kind: month）写 ${input.monthEcho} 的月响，一段即可。`)
  if (input.yearRing !== undefined) tasks.push(`这是今年第一场梦：请用 memory_dream_echo（kind: year）写 ${input.yearRing} 的年轮，一段即可。`)
  tasks.push('若你觉得人格、五育或存储结构已有重大变化，可以在 memory_dream_journal 的 new_volume_suggestion 里写下建议（理由与变化）；开不开新卷由人决定。')
  parts.push(tasks.join('\n'))
  return {
    text: parts.join('\n\n'),
    shownPending,
    cut: { entries: Math.max(0, input.entries.length - entries.length), pending: Math.max(0, input.pending.length - shownPending.length) },
  }
}

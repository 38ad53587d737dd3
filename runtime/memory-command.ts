import type { Context } from '@deepseek-ai/cordis'
import type {} from '../host/service.ts'
import { captureCommand, type WhalePersona } from '../host/whale-row.ts'
import { clip, isPersonBase, ownerOf, searchEntries, type MemoryStore, type StoredEntry } from '../memory/index.ts'
import type { CommandResult } from './cyrene-subcommands.ts'

/**
 * `/memory` in Cyrene's presets is Cyrene's memory (contract §2.3): bare →
 * how much there is and the newest entries, `<query>` → hits, `show <id>` →
 * one entry whole, `capture on|off|status` → whale-persona's capture switch
 * (the preset-scoped command shadows the whale row's host `/memory`). Reads
 * only, except the capture switch.
 */
const NEWEST = 5
const HITS = 8
const LINE_CHARS = 80
const CAPTURE_USAGE = '/memory capture on | off | status'
export const MEMORY_USAGE = `<要找的内容> | show <id> | capture on|off|status`

/** One entry on one line: stored text may hold line breaks and control characters from a hand edit. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return clip(text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim(), LINE_CHARS)
}

const dateOf = (e: StoredEntry) => (e.meta.at ?? '').slice(0, 10)

async function overview(store: MemoryStore): Promise<CommandResult> {
  const { entries } = await store.scan()
  const day = entries.filter((e) => e.area === 'day')
  const pending = entries.length - day.length
  const marks = store.marks().marks
  const base = day.filter((e) => isPersonBase(marks, e)).length
  const newest = [...day].sort((a, b) => (dateOf(b) + (b.meta.at ?? '')).localeCompare(dateOf(a) + (a.meta.at ?? ''))).slice(0, NEWEST)
  return {
    kind: 'success',
    text: [
      `昔涟的记忆：日档 ${day.length} 条（其中基石 ${base} 条），待定 ${pending} 条（余页/待定，等月检/年检复评）。`,
      ...(newest.length === 0 ? ['还没有写下的记忆。'] : ['最新的几条：', ...newest.map((e) => `- ${dateOf(e)} ${oneLine(e.text)}（${e.id}）`)]),
      `查找：/memory <要找的内容>；全文：/memory show <id>。`,
    ].join('\n'),
  }
}

async function search(ctx: Context, store: MemoryStore, query: string): Promise<CommandResult> {
  const memory = ctx.get('cyreneMemory')!
  // The host's index while it is ready (kept level every step); before that the same search `cyrene memory search` runs.
  const hits =
    memory.doctorState().recall.kind === 'ready'
      ? (await memory.recall(query, HITS)).map((h) => ({ id: h.id, date: h.date, text: h.text }))
      : (await searchEntries(store, query, { limit: HITS })).map((h) => ({ id: h.entry.id, date: dateOf(h.entry), text: h.entry.text }))
  if (hits.length === 0) return { kind: 'success', text: `没有找到和「${oneLine(query)}」相关的记忆。` }
  return {
    kind: 'success',
    text: [`和「${oneLine(query)}」相关的记忆 ${hits.length} 条：`, ...hits.map((h) => `- ${h.date} ${oneLine(h.text)}（${h.id}）`)].join('\n'),
  }
}

async function show(store: MemoryStore, id: string | undefined): Promise<CommandResult> {
  if (id === undefined) return { kind: 'error', text: '用法：/memory show <id>（id 见 /memory 或查找结果里括号中的那串）' }
  const entry = await store.get(id)
  if (entry === undefined) return { kind: 'error', text: `没有 id 为 ${oneLine(id)} 的记忆；/memory <要找的内容> 可以找到它的 id。` }
  const m = entry.meta
  // Who wrote it and whether it is base come from the person-marks record, never from the comment alone (CONTRACT §12.19).
  const marks = store.marks().marks
  const owner = ownerOf(marks, entry)
  const facts = [
    `${entry.area === 'day' ? '日档' : '待定'} ${entry.file}`,
    m.kind !== undefined ? `类型 ${m.kind}` : '',
    m.axis !== undefined ? `${m.axis}育${m.reason !== undefined ? `：${m.reason}` : ''}` : '',
    m.by !== undefined || owner !== 'model' ? `由 ${owner === 'person' ? '你' : owner === 'model' ? '昔涟' : '导入'} 写下` : '',
    m.at !== undefined ? `于 ${m.at}` : '',
    isPersonBase(marks, entry) ? '基石（只有你能改）' : '',
    owner === 'model' && (m.base === true || m.by === 'person') ? '（注释里自称是你写的或基石，但没有你的记录，按昔涟写的算）' : '',
    m.vol !== undefined ? `第 ${m.vol} 卷` : '',
  ].filter((f) => f !== '')
  return {
    kind: 'success',
    text: [
      entry.text,
      '',
      facts.join('，'),
      ...(m.src_quote !== undefined ? [`出处原话：${m.src_quote}`] : []),
      ...(m.src_ids !== undefined && m.src_ids.length > 0 ? [`来源条目：${m.src_ids.join('、')}`] : []),
      ...(m.links !== undefined && m.links.length > 0 ? [`关联：${m.links.join('、')}`] : []),
      ...(Array.isArray(m.pending_reasons) ? [`待定原因：${(m.pending_reasons as unknown[]).join('；')}`] : []),
    ].join('\n'),
  }
}

function capture(ctx: Context, sessionId: string, rest: string): CommandResult {
  const whale = ctx.get('whalePersona') as WhalePersona | undefined
  if (whale === undefined) return { kind: 'error', text: 'whale-persona 行没有挂载，收口开关不可用（见 /cyrene doctor）。' }
  return captureCommand(whale, sessionId, rest, CAPTURE_USAGE)
}

export async function memoryCommand(ctx: Context, sessionId: string, rawInput: string): Promise<CommandResult> {
  const input = rawInput.trim()
  const [first = '', ...rest] = input.split(/\s+/)
  const word = first.toLowerCase()
  if (word === 'capture') return capture(ctx, sessionId, rest.join(' '))
  // The whale row's words alone would read as a query here; say where the switch went instead of searching for "on".
  if (['on', 'off', 'status'].includes(word) && rest.length === 0)
    return { kind: 'error', text: `在昔涟的预设里，/memory 是昔涟的记忆；whale-persona 的候选收口开关是 ${CAPTURE_USAGE}。什么都没改。` }
  const store = ctx.get('cyreneMemory')?.store()
  if (store === undefined) return { kind: 'error', text: '记忆引擎没有在这个 DSH 进程里运行（原因见 /cyrene doctor）。' }
  try {
    if (input === '') return await overview(store)
    if (word === 'show') return await show(store, rest[0])
    return await search(ctx, store, input)
  } catch (error) {
    return { kind: 'error', text: `读不了记忆：${(error as Error).message}` }
  }
}

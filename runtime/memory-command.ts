import type { Context } from '@deepseek-ai/cordis'
import { t, type Lang } from '../i18n/index.ts'
import type {} from '../host/service.ts'
import { captureCommand, type WhalePersona } from '../host/whale-row.ts'
import { kindLabel } from '../i18n/kinds.ts'
import { gateProblemText } from '../i18n/gate.ts'
import { gateProblemOf } from '../memory/format.ts'
import { isPersonBase, ownerOf } from '../memory/marks.ts'
import type { MemoryStore, StoredEntry } from '../memory/index.ts'
import { clip } from '../prompt/index.ts'
import { searchEntries } from '../recall/index.ts'
import type { CommandResult } from './cyrene-subcommands.ts'

/**
 * `/memory` in Cyrene's presets is Cyrene's memory (CONTRACT#whale-capture): bare →
 * how much there is and the newest entries, `<query>` → hits, `show <id>` →
 * one entry whole, `capture on|off|status` → whale-persona's capture switch
 * (the preset-scoped command shadows the whale row's host `/memory`). Reads
 * only, except the capture switch.
 */
const NEWEST = 5
const HITS = 8
const LINE_CHARS = 80
const CAPTURE_USAGE = '/memory capture on | off | status'

/** A text as quoted lines (`> `), its own blank lines kept as `>`. */
function quotedLines(text: string): string {
  return text
    .split(/\r\n?|\n|\u2028|\u2029/)
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n')
}

/** A field on one line, whole: stored text may hold line breaks and control characters (a hand edit, a model's reason). */
function flat(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
}

/** One entry on one line, cut to a list's width. */
function oneLine(text: string): string {
  return clip(flat(text), LINE_CHARS)
}

const dateOf = (e: StoredEntry) => (e.meta.at ?? '').slice(0, 10)

async function overview(store: MemoryStore, lang: Lang): Promise<CommandResult> {
  const { entries } = await store.scan()
  const day = entries.filter((e) => e.area === 'day')
  const pending = entries.length - day.length
  const marks = store.marks().marks
  const base = day.filter((e) => isPersonBase(marks, e)).length
  const newest = [...day].sort((a, b) => (dateOf(b) + (b.meta.at ?? '')).localeCompare(dateOf(a) + (a.meta.at ?? ''))).slice(0, NEWEST)
  return {
    kind: 'success',
    text: [
      t('chat.memory.overview', lang, { n: day.length, base, pending }),
      ...(newest.length === 0
        ? [t('chat.memory.empty', lang)]
        : [t('chat.memory.newest', lang), ...newest.map((e) => t('chat.memory.line', lang, { date: dateOf(e), text: oneLine(e.text), id: e.id }))]),
      t('chat.memory.howTo', lang),
    ].join('\n'),
  }
}

async function search(ctx: Context, store: MemoryStore, query: string, lang: Lang): Promise<CommandResult> {
  const memory = ctx.get('cyreneMemory')!
  // The host's index while it is ready (kept level every step); before that the same index opened from its cache, as `cyrene memory search` does.
  const hits = memory.doctorState().recall.index.kind === 'ready' ? await memory.recall(query, HITS) : await searchEntries(store, query, { limit: HITS })
  if (hits.length === 0) return { kind: 'success', text: t('chat.memory.noHits', lang, { query: oneLine(query) }) }
  return {
    kind: 'success',
    text: [
      t('chat.memory.hits', lang, { query: oneLine(query), n: hits.length }),
      ...hits.map((h) => t('chat.memory.line', lang, { date: h.date, text: oneLine(h.text), id: h.id })),
    ].join('\n'),
  }
}

async function show(store: MemoryStore, id: string | undefined, lang: Lang): Promise<CommandResult> {
  if (id === undefined) return { kind: 'error', text: t('chat.memory.showUsage', lang) }
  const entry = await store.get(id)
  if (entry === undefined) return { kind: 'error', text: t('chat.memory.noSuchId', lang, { id: oneLine(id) }) }
  const m = entry.meta
  // Who wrote it and whether it is base come from the person-marks record, never from the comment alone (CONTRACT#person-marks).
  const marks = store.marks().marks
  const owner = ownerOf(marks, entry)
  const facts = [
    t(entry.area === 'day' ? 'chat.memory.inDay' : 'chat.memory.inPending', lang, { file: entry.file }),
    m.kind !== undefined ? t('chat.memory.kind', lang, { kind: kindLabel(m.kind, lang) }) : '',
    m.axis !== undefined
      ? `${t('chat.memory.axis', lang, { axis: m.axis })}${m.reason !== undefined ? `${t('doctor.colon', lang)}${flat(m.reason)}` : ''}`
      : '',
    m.by !== undefined || owner !== 'model'
      ? t(owner === 'person' ? 'chat.memory.byPerson' : owner === 'model' ? 'chat.memory.byModel' : 'chat.memory.byImport', lang)
      : '',
    m.at !== undefined ? t('chat.memory.at', lang, { at: m.at }) : '',
    isPersonBase(marks, entry) ? t('chat.memory.base', lang) : '',
    owner === 'model' && (m.base === true || m.by === 'person') ? t('chat.memory.unbackedClaim', lang) : '',
    m.vol !== undefined ? t('chat.memory.vol', lang, { n: m.vol }) : '',
  ].filter((f) => f !== '')
  return {
    kind: 'success',
    text: [
      // The entry's own words, each line quoted: a line in them can never pass for one of the details below (who wrote it, base).
      quotedLines(entry.text),
      '',
      facts.join(t('chat.memory.factSep', lang)),
      ...(m.src_quote !== undefined ? [t('chat.memory.srcQuote', lang, { quote: flat(m.src_quote) })] : []),
      ...(m.src_ids !== undefined && m.src_ids.length > 0 ? [t('chat.memory.srcIds', lang, { ids: m.src_ids.join(', ') })] : []),
      ...(m.links !== undefined && m.links.length > 0 ? [t('chat.memory.links', lang, { ids: m.links.join(', ') })] : []),
      ...(Array.isArray(m.pending_reasons)
        ? [
            t('chat.memory.pendingReasons', lang, {
              reasons: (m.pending_reasons as unknown[]).map((r) => gateProblemText(gateProblemOf(String(r)) ?? String(r), lang)).join(t('gate.sep', lang)),
            }),
          ]
        : []),
    ].join('\n'),
  }
}

function capture(ctx: Context, sessionId: string, rest: string, lang: Lang): CommandResult {
  const whale = ctx.get('whalePersona') as WhalePersona | undefined
  if (whale === undefined) return { kind: 'error', text: t('chat.memory.noWhale', lang) }
  return captureCommand(whale, sessionId, rest, CAPTURE_USAGE)
}

export async function memoryCommand(ctx: Context, sessionId: string, rawInput: string, lang: Lang): Promise<CommandResult> {
  const input = rawInput.trim()
  const [first = '', ...rest] = input.split(/\s+/)
  const word = first.toLowerCase()
  if (word === 'capture') return capture(ctx, sessionId, rest.join(' '), lang)
  // The whale row's words alone would read as a query here; say where the switch went instead of searching for "on".
  if (['on', 'off', 'status'].includes(word) && rest.length === 0) return { kind: 'error', text: t('chat.memory.captureMoved', lang, { usage: CAPTURE_USAGE }) }
  const store = ctx.get('cyreneMemory')?.store()
  if (store === undefined) return { kind: 'error', text: t('chat.noEngine', lang) }
  try {
    if (input === '') return await overview(store, lang)
    if (word === 'show') return await show(store, rest[0], lang)
    return await search(ctx, store, input, lang)
  } catch (error) {
    return { kind: 'error', text: t('chat.memory.unreadable', lang, { error: (error as Error).message }) }
  }
}

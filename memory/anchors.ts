import { charCount } from '../prompt/index.ts'
import { audit, auditLog } from './audit.ts'
import { readTextOr } from './fsio.ts'
import { LAYOUT, localDate } from './paths.ts'
import { ANCHOR_KEYS, type AnchorKey, type Settings } from './settings.ts'
import type { StoreCore } from './store-core.ts'
import { checkText, RefusedError, type Writer } from './validate.ts'
import { currentVolume } from './volumes.ts'

/** The store as the anchors see it: its core and the anchor limits of its settings. */
type AnchorStore = StoreCore & { readonly settings: Settings }

/**
 * The four anchors (四问): who I am, who you are, where we came from, where we
 * are going. An anchor file is a core text followed by dated sections
 * `## 卷N·YYYY-MM-DD`. When the file grows past its limit, the oldest dated
 * sections move to 锚/历史/<key>/YYYY-MM.md (only ever appended to) and one
 * reference line stays in place.
 */
export const ANCHOR_FILES: Record<AnchorKey, string> = { self: '我是谁', user: '你是谁', origin: '来处', goal: '去处' }
/** Days between two model writes of one anchor. */
const ANCHOR_CADENCE_DAYS: Record<AnchorKey, number> = { self: 1, user: 1, goal: 1, origin: 7 }
const EARLIER_PREFIX = '> 更早的卷：'
const SECTION_RE = /^## 卷(\d+)·(\d{4}-\d{2}-\d{2})[ \t]*$/
/** A section heading as the parser reads it, or as a person reading the file would (other #-levels, spaces). */
const HEADING_LIKE_RE = /^\s*#{1,6}\s*卷\s*\d+\s*·\s*\d{4}-\d{2}-\d{2}/
const EARLIER_LIKE_RE = /^\s*>\s*更早的卷[：:]/

export interface AnchorSection {
  vol: number
  date: string
  text: string
}
export interface AnchorDoc {
  core: string
  earlierRef: string | undefined
  sections: AnchorSection[]
}

export function anchorRel(key: AnchorKey): string {
  return `${LAYOUT.anchors}/${ANCHOR_FILES[key]}.md`
}
function anchorHistoryRel(key: AnchorKey, month: string): string {
  return `${LAYOUT.anchorHistory}/${key}/${month}.md`
}

function isAnchorKey(k: unknown): k is AnchorKey {
  return typeof k === 'string' && (ANCHOR_KEYS as readonly string[]).includes(k)
}

/** Pure parse of an anchor file. Text before the first section is the core. */
export function parseAnchor(text: string): AnchorDoc {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const core: string[] = []
  const sections: AnchorSection[] = []
  let earlierRef: string | undefined
  let cur: AnchorSection | undefined
  let body: string[] = []
  const flush = (): void => {
    if (cur !== undefined) {
      cur.text = body.join('\n').trim()
      sections.push(cur)
    }
  }
  for (const line of lines) {
    const m = SECTION_RE.exec(line)
    if (m !== null) {
      flush()
      cur = { vol: Number(m[1]), date: m[2]!, text: '' }
      body = []
      continue
    }
    if (cur === undefined) {
      if (line.startsWith(EARLIER_PREFIX)) earlierRef = line
      else core.push(line)
    } else body.push(line)
  }
  flush()
  return { core: core.join('\n').trim(), earlierRef, sections }
}

function renderSection(s: AnchorSection): string {
  return `## 卷${s.vol}·${s.date}\n${s.text}`
}

export function renderAnchor(doc: AnchorDoc): string {
  const parts: string[] = []
  if (doc.core !== '') parts.push(doc.core)
  if (doc.earlierRef !== undefined) parts.push(doc.earlierRef)
  for (const s of doc.sections) parts.push(renderSection(s))
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`
}

/**
 * Pure: fit a document under `limit` characters by moving the oldest sections
 * out (the newest always stays). Throws if even core + newest does not fit.
 */
export function fitAnchor(doc: AnchorDoc, key: AnchorKey, limit: number): { doc: AnchorDoc; archived: AnchorSection[] } {
  let sections = [...doc.sections]
  const archived: AnchorSection[] = []
  let earlierRef = doc.earlierRef
  const size = (): number => charCount(renderAnchor({ core: doc.core, earlierRef, sections }).trim())
  while (size() > limit && sections.length > 1) {
    archived.push(sections[0]!)
    sections = sections.slice(1)
    earlierRef = `${EARLIER_PREFIX}见 ${LAYOUT.anchorHistory}/${key}/`
  }
  if (size() > limit) {
    throw new RefusedError(
      'too-long',
      `the ${key} anchor would be ${size()} characters; its limit is ${limit} (元/settings.json "anchor"). Shorten the text or the core.`,
      { variant: 'anchor', key, chars: String(size()), limit: String(limit) },
    )
  }
  return { doc: { core: doc.core, earlierRef, sections }, archived }
}

export async function readAnchor(store: AnchorStore, key: AnchorKey): Promise<AnchorDoc & { file: string; chars: number; limit: number }> {
  const file = anchorRel(key)
  const text = await readTextOr(store.root, store.path(file), '')
  const doc = parseAnchor(text)
  return { ...doc, file, chars: charCount(text.trim()), limit: store.settings.anchor[key] }
}

export interface AnchorWrite {
  text: string
  /** `section` (default): add a dated section. `core`: replace the core — person only. */
  mode?: 'section' | 'core'
}

async function lastModelAnchorWrite(store: AnchorStore, key: AnchorKey): Promise<Date | undefined> {
  // The longest cadence is a week, so last month's file is as far back as we need to look.
  const from = new Date(store.now().getTime() - 40 * 86_400_000).toISOString().slice(0, 7)
  const log = await auditLog(store, from)
  let last: Date | undefined
  for (const r of log) if (r.op === 'anchor' && r.key === key && r.by === 'model' && typeof r.at === 'string') last = new Date(r.at)
  return last
}

/**
 * Text written into an anchor may not hold a line the file would read as its
 * own structure: a dated section heading would forge a section (any volume,
 * any date, shown first), a reference line would be taken out of the core.
 */
function checkAnchorLines(text: string, key: AnchorKey): void {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const heading = HEADING_LIKE_RE.test(line)
    const what = heading
      ? 'a dated section heading (## 卷N·YYYY-MM-DD)'
      : EARLIER_LIKE_RE.test(line)
        ? `the history reference line (${EARLIER_PREFIX.trim()}…)`
        : undefined
    if (what === undefined) continue
    throw new RefusedError(
      'bad-input',
      `the ${key} anchor text has on line ${i + 1} ${JSON.stringify(line.trim())}, which the anchor file would read as ${what}; the store writes headings, dates and references itself. Remove or reword that line (for example without the leading "#" or ">") and write again. Nothing was written.`,
      {
        variant: heading ? 'anchor-heading' : 'anchor-reference',
        form: heading ? '## 卷N·YYYY-MM-DD' : `${EARLIER_PREFIX.trim()}…`,
        key,
        line: String(i + 1),
        text: JSON.stringify(line.trim()),
      },
    )
  }
}

export async function writeAnchor(
  store: AnchorStore,
  key: AnchorKey,
  input: AnchorWrite,
  ctx: { by: Writer },
): Promise<{ file: string; archived: number; chars: number }> {
  if (!isAnchorKey(key))
    throw new RefusedError('bad-input', `anchor must be one of ${ANCHOR_KEYS.join(', ')}`, { variant: 'anchor-key', keys: ANCHOR_KEYS.join(', ') })
  const limit = store.settings.anchor[key]
  const { text } = checkText(
    input.text,
    { ...store.limits, entryChars: limit },
    { en: `${key} anchor text`, said: { code: 'part.anchor-text', params: { key } } },
  )
  checkAnchorLines(text, key)
  const mode = input.mode ?? 'section'
  if (mode === 'core' && ctx.by !== 'person')
    throw new RefusedError('person-only', "only the person may rewrite an anchor's core; the model adds dated sections", { variant: 'anchor-core' })
  const now = store.now()
  if (ctx.by === 'model') {
    const last = await lastModelAnchorWrite(store, key)
    const days = ANCHOR_CADENCE_DAYS[key]
    if (last !== undefined && now.getTime() - last.getTime() < days * 86_400_000) {
      throw new RefusedError(
        'cadence',
        `the ${key} anchor was already written at ${last.toISOString()}; it may be written once every ${days === 1 ? 'day' : `${days} days`}. Keep the thought in today's entries instead.`,
        { key, at: last.toISOString(), days: String(days) },
      )
    }
  }
  const file = anchorRel(key)
  return await store.withWriteLock(async (lock) => {
    const current = await store.readForRewrite(file)
    const parsed = parseAnchor(current)
    const vol = (await currentVolume(store)) ?? 0
    const next: AnchorDoc = mode === 'core' ? { ...parsed, core: text } : { ...parsed, sections: [...parsed.sections, { vol, date: localDate(now), text }] }
    const { doc, archived } = fitAnchor(next, key, limit)
    const byMonth = new Map<string, AnchorSection[]>()
    for (const s of archived) byMonth.set(s.date.slice(0, 7), [...(byMonth.get(s.date.slice(0, 7)) ?? []), s])
    // Every new text is known before anything is written, so the quota sees the whole change.
    const history: { rel: string; old: string; next: string }[] = []
    for (const [month, secs] of byMonth) {
      const rel = anchorHistoryRel(key, month)
      const old = await store.readForRewrite(rel)
      // A section a failed write already moved there (the anchor file could not follow: a full disk) is not moved twice.
      const had = `\n\n${old.replace(/\n*$/, '')}\n\n`
      const add = secs
        .map(renderSection)
        .filter((r) => !had.includes(`\n\n${r}\n\n`))
        .join('\n\n')
      if (add === '') continue
      history.push({ rel, old, next: old.trim() === '' ? `${add}\n` : `${old.replace(/\n*$/, '')}\n\n${add}\n` })
    }
    const rendered = renderAnchor(doc)
    const delta = [...history, { old: current, next: rendered }].reduce((n, f) => n + Buffer.byteLength(f.next) - Buffer.byteLength(f.old), 0)
    await store.checkQuota(delta, false)
    // History first: a crash between the two writes leaves a section in both places, never in neither.
    for (const h of history) await store.replaceFile(h.rel, h.next, lock)
    await store.replaceFile(file, rendered, lock)
    // The usage cache does not see these bytes; measure again so the next write is checked against them.
    await store.measureUsage(true).catch(() => undefined)
    await audit(store, { op: 'anchor', key, mode, by: ctx.by, chars: charCount(rendered.trim()), archived: archived.length })
    return { file, archived: archived.length, chars: charCount(rendered.trim()) }
  })
}

export async function readAllAnchors(store: AnchorStore): Promise<Record<AnchorKey, Awaited<ReturnType<typeof readAnchor>>>> {
  const out = {} as Record<AnchorKey, Awaited<ReturnType<typeof readAnchor>>>
  for (const k of ANCHOR_KEYS) out[k] = await readAnchor(store, k)
  return out
}

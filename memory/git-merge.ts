import { createHash } from 'node:crypto'
import { parseEntryFile } from './entry.ts'
import { decodeUtf8 } from './fsio.ts'

/**
 * The merges git's `merge=` drivers run for the store (CONTRACT#git-sync): pure
 * functions of the three versions of one file (base, ours, theirs). None of
 * them ever writes a `<<<<<<<` marker: what both sides changed differently is
 * kept as ours in the file and handed back as a `MergeConflict` for the person
 * to pick (`cyrene memory resolve`).
 */
export interface MergeConflict {
  /** 'entry': one entry by id; 'section': an anchor's core or dated section; 'file': a whole file. */
  kind: 'entry' | 'section' | 'file'
  /** The entry id, the section heading ('core' for an anchor's core), or '' for a whole file. */
  key: string
  ours: string
  theirs: string
  /** 'base64' when the file is not UTF-8: ours and theirs are its bytes in base64, never text that lost them. */
  encoding?: 'base64'
}

export interface MergeResult {
  text: string
  conflicts: MergeConflict[]
  /** Lines for the audit log (settings: which key took which side). */
  notes: Array<Record<string, unknown>>
}

/**
 * What waits in 元/冲突/<id>.json for the person to pick: the id is a hash of what conflicts, so the
 * same conflict met twice (a merge run again after a kill) is one record.
 */
export function conflictRecord(file: string, c: MergeConflict, at: string): { id: string; text: string } {
  const id = createHash('sha256')
    .update(JSON.stringify([file, c.kind, c.key, c.ours, c.theirs]))
    .digest('hex')
    .slice(0, 12)
  const record = {
    id,
    version: 1,
    kind: c.kind,
    file,
    key: c.key,
    ours: c.ours,
    theirs: c.theirs,
    at,
    ...(c.encoding === undefined ? {} : { encoding: c.encoding }),
  }
  return { id, text: `${JSON.stringify(record, null, 2)}\n` }
}

/** One piece of a file the token merge moves as a whole, under a key unique in its file. */
interface Token {
  key: string
  raw: string
}

/** Blocks of free text: each paragraph with the blank lines after it (so joining them gives the text back). */
function paragraphs(text: string): string[] {
  const out: string[] = []
  let cur = ''
  let blank = false
  for (const line of text.split(/(?<=\n)/)) {
    const isBlank = line.trim() === ''
    if (!isBlank && blank && cur !== '') {
      out.push(cur)
      cur = ''
    }
    cur += line
    blank = isBlank
  }
  if (cur !== '') out.push(cur)
  return out
}

/** Keys made unique by counting repeats (two identical paragraphs are two tokens). */
function numbered(pairs: Array<[string, string]>): Token[] {
  const seen = new Map<string, number>()
  return pairs.map(([key, raw]) => {
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    return { key: n === 1 ? key : `${key}#${n}`, raw }
  })
}

/** A day file, a pending file, a dream journal, 余页/: entries by id, the free text between them by paragraph. */
function entryTokens(text: string): Token[] {
  const pairs: Array<[string, string]> = []
  for (const seg of parseEntryFile(text, '').segments) {
    if (seg.type === 'entry') pairs.push([`id:${seg.entry.meta.id}`, seg.raw])
    else for (const p of paragraphs(seg.raw)) pairs.push([`text:${p.trim()}`, p])
  }
  return numbered(pairs)
}

const ANCHOR_SECTION_RE = /^## 卷\d+·\d{4}-\d{2}-\d{2}[ \t]*$/

/** An anchor: its core (everything before the first dated section), then each `## 卷N·YYYY-MM-DD` section. */
function anchorTokens(text: string): Token[] {
  const pairs: Array<[string, string]> = []
  let key = 'core'
  let raw = ''
  for (const line of text.split(/(?<=\n)/)) {
    if (ANCHOR_SECTION_RE.test(line.replace(/\r?\n$/, ''))) {
      if (raw !== '' || key !== 'core') pairs.push([key, raw])
      key = line.trim()
      raw = ''
    }
    raw += line
  }
  if (raw !== '' || key !== 'core') pairs.push([key, raw])
  return numbered(pairs)
}

const withNewline = (raw: string): string => (raw === '' || raw.endsWith('\n') ? raw : `${raw}\n`)

/**
 * Three-way union of tokens: a token one side changed takes that side, one
 * side removed (and the other left alone) goes, one both changed differently
 * keeps ours and is a conflict; tokens only theirs has are added after ours,
 * in their order. A token removed on one side and changed on the other is kept
 * (nothing the person wrote is lost by a merge).
 */
function mergeTokens(base: Token[], ours: Token[], theirs: Token[], kind: MergeConflict['kind'], keyOf: (k: string) => string): MergeResult {
  const O = new Map(base.map((t) => [t.key, t.raw]))
  const B = new Map(theirs.map((t) => [t.key, t.raw]))
  const A = new Set(ours.map((t) => t.key))
  const out: string[] = []
  const conflicts: MergeConflict[] = []
  for (const t of ours) {
    const o = O.get(t.key)
    const b = B.get(t.key)
    if (b === undefined) {
      // Theirs removed it: it goes if ours left it as it was.
      if (o !== undefined && o === t.raw) continue
      out.push(t.raw)
    } else if (b === t.raw || b === o) {
      out.push(t.raw)
    } else if (o === t.raw) {
      out.push(b)
    } else {
      out.push(t.raw)
      conflicts.push({ kind, key: keyOf(t.key), ours: t.raw, theirs: b })
    }
  }
  for (const t of theirs) {
    if (A.has(t.key)) continue
    const o = O.get(t.key)
    // Ours removed it and theirs did not touch it: it stays removed.
    if (o !== undefined && o === t.raw) continue
    out.push(t.raw)
  }
  return { text: out.map(withNewline).join(''), conflicts, notes: [] }
}

export function mergeEntryFile(base: string, ours: string, theirs: string): MergeResult {
  return mergeTokens(entryTokens(base), entryTokens(ours), entryTokens(theirs), 'entry', (k) => (k.startsWith('id:') ? k.slice(3) : k))
}

export function mergeAnchor(base: string, ours: string, theirs: string): MergeResult {
  return mergeTokens(anchorTokens(base), anchorTokens(ours), anchorTokens(theirs), 'section', (k) => k)
}

/** Append-only JSON lines (the audit log, any `.jsonl`): every line of both sides once, in time order. */
export function mergeLines(base: string, ours: string, theirs: string): MergeResult {
  const lines = (t: string): string[] => t.split('\n').filter((l) => l.trim() !== '')
  const seen = new Set<string>()
  const all: Array<{ line: string; at: string; n: number }> = []
  for (const l of [...lines(base), ...lines(ours), ...lines(theirs)]) {
    if (seen.has(l)) continue
    seen.add(l)
    all.push({ line: l, at: timeOf(l), n: all.length })
  }
  // Lines without a time keep their place relative to each other (stable sort; '' sorts first).
  all.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : x.n - y.n))
  return { text: all.map((x) => `${x.line}\n`).join(''), conflicts: [], notes: [] }
}

function timeOf(line: string): string {
  try {
    const v = JSON.parse(line) as Record<string, unknown>
    for (const k of ['at', 'time', 'ts']) if (typeof v[k] === 'string') return v[k]
  } catch {
    /* not JSON: no time */
  }
  return ''
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

function parseJson(text: string): unknown {
  if (text.trim() === '') return {}
  return JSON.parse(text)
}

/** The three sides of a JSON merge (base, ours, theirs); undefined when one does not parse, which the caller merges whole. */
function parseSides(base: string, ours: string, theirs: string): [unknown, unknown, unknown] | undefined {
  try {
    return [parseJson(base), parseJson(ours), parseJson(theirs)]
  } catch {
    return undefined
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * `元/settings.json` (and the night's record): key by key, leaf by leaf; a key
 * only one side changed takes it; a key both changed takes the newer side (the
 * later commit), and says so in an audit note.
 */
export function mergeKeyed(base: string, ours: string, theirs: string, newer: 'ours' | 'theirs', file: string): MergeResult {
  const sides = parseSides(base, ours, theirs)
  if (sides === undefined) return mergeWhole(base, ours, theirs)
  const [o, a, b] = sides
  if (!isObject(o) || !isObject(a) || !isObject(b)) return mergeWhole(base, ours, theirs)
  const notes: Array<Record<string, unknown>> = []
  const merged = keyedObject(o, a, b, newer, '', (key, took) => notes.push({ op: 'git-merge-setting', file, key, took }))
  return { text: `${JSON.stringify(merged, null, 2)}\n`, conflicts: [], notes }
}

function keyedObject(o: Json, a: Json, b: Json, newer: 'ours' | 'theirs', path: string, note: (key: string, took: string) => void): Json {
  const out: Json = {}
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
  for (const k of keys) {
    const here = path === '' ? k : `${path}.${k}`
    const [ov, av, bv] = [o[k], a[k], b[k]]
    if (isObject(av) && isObject(bv)) {
      out[k] = keyedObject(isObject(ov) ? ov : {}, av, bv, newer, here, note)
      continue
    }
    let v: unknown
    if (same(av, bv)) v = av
    else if (same(av, ov)) v = bv
    else if (same(bv, ov)) v = av
    else {
      v = newer === 'ours' ? av : bv
      // A key one side removed and the other changed keeps the change.
      if (v === undefined) v = newer === 'ours' ? bv : av
      note(here, newer)
    }
    if (v !== undefined) out[k] = v
  }
  return out
}

/** `元/梦会话.json`: the union of sessions; a session both sides saw keeps the one active last. */
export function mergeRegistry(base: string, ours: string, theirs: string): MergeResult {
  const sides = parseSides(base, ours, theirs)
  if (sides === undefined) return mergeWhole(base, ours, theirs)
  const [o, a, b] = sides
  if (!isObject(a) || !isObject(b) || !isObject(a.sessions) || !isObject(b.sessions)) return mergeWhole(base, ours, theirs)
  const os = isObject(o) && isObject(o.sessions) ? o.sessions : {}
  const sessions: Json = {}
  for (const id of new Set([...Object.keys(a.sessions), ...Object.keys(b.sessions)])) {
    const [ov, av, bv] = [os[id], a.sessions[id], b.sessions[id]]
    if (av === undefined) {
      if (!same(bv, ov)) sessions[id] = bv
    } else if (bv === undefined) {
      if (!same(av, ov)) sessions[id] = av
    } else {
      const when = (v: unknown): string => (isObject(v) && typeof v.lastActiveAt === 'string' ? v.lastActiveAt : '')
      sessions[id] = when(bv) > when(av) ? bv : av
    }
  }
  const top = { ...b, ...a, sessions }
  return { text: `${JSON.stringify(top, null, 2)}\n`, conflicts: [], notes: [] }
}

/**
 * `元/卷.json`: never merged silently. Two different current volumes are a
 * conflict for the person; with the same current volume the list is the union
 * by volume id, and a volume both machines opened on their own (each fresh
 * store starts volume 0) keeps the one started first.
 */
export function mergeVolumes(base: string, ours: string, theirs: string): MergeResult {
  let a: unknown, b: unknown
  try {
    a = parseJson(ours)
    b = parseJson(theirs)
  } catch {
    return mergeWhole(base, ours, theirs)
  }
  const vols = (v: unknown): Json[] | undefined => (isObject(v) && Array.isArray(v.volumes) && v.volumes.every(isObject) ? (v.volumes as Json[]) : undefined)
  const [va, vb] = [vols(a), vols(b)]
  if (!isObject(a) || !isObject(b) || va === undefined || vb === undefined || a.current !== b.current) return mergeWhole(base, ours, theirs)
  const byId = new Map<unknown, Json>()
  for (const v of [...va, ...vb]) {
    const had = byId.get(v.id)
    if (had === undefined || String(v.started_at ?? '') < String(had.started_at ?? '')) byId.set(v.id, v)
  }
  const volumes = [...byId.values()].sort((x, y) => Number(x.id) - Number(y.id))
  const text = `${JSON.stringify({ ...b, ...a, volumes }, null, 2)}\n`
  return { text: sameJson(text, ours) ? ours : text, conflicts: [], notes: [] }
}

/**
 * A file the merge does not understand (元/卷.json, an unknown 元/*.json, any
 * other file): a side that changed it wins; both changed differently keeps
 * ours and hands theirs to the person. Never merged silently.
 */
export function mergeWhole(base: string, ours: string, theirs: string): MergeResult {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: [], notes: [] }
  if (ours === base) return { text: theirs, conflicts: [], notes: [] }
  if (sameJson(ours, theirs)) return { text: ours, conflicts: [], notes: [] }
  return { text: ours, conflicts: [{ kind: 'file', key: '', ours, theirs }], notes: [] }
}

/** The text of a version of a file, or undefined when it is not UTF-8 (a text merge would replace its bytes with U+FFFD). */
export function utf8Text(b: Buffer | undefined): string | undefined {
  if (b === undefined) return ''
  const decoded = decodeUtf8(b)
  return decoded.valid ? decoded.text : undefined
}

/** Two versions of a file alike, byte for byte (undefined: no file on that side). */
export function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.equals(b)
}

/**
 * A file that is not UTF-8 on some side, by its bytes: a side that changed it wins; both changed
 * differently keeps ours and hands theirs to the person in base64 (resolve --keep b writes those bytes).
 */
export function mergeBytes(
  base: Buffer | undefined,
  ours: Buffer | undefined,
  theirs: Buffer | undefined,
): { bytes: Buffer | undefined; conflicts: MergeConflict[] } {
  if (sameBytes(ours, theirs) || sameBytes(theirs, base)) return { bytes: ours, conflicts: [] }
  if (sameBytes(ours, base)) return { bytes: theirs, conflicts: [] }
  const b64 = (x: Buffer | undefined): string => (x ?? Buffer.alloc(0)).toString('base64')
  return { bytes: ours, conflicts: [{ kind: 'file', key: '', ours: b64(ours), theirs: b64(theirs), encoding: 'base64' }] }
}

function sameJson(a: string, b: string): boolean {
  try {
    return same(JSON.parse(a), JSON.parse(b))
  } catch {
    return false
  }
}

/** The drivers `.gitattributes` names (CONTRACT#git-merge). */
export const DRIVERS = ['entries', 'anchor', 'keyed', 'registry', 'volumes', 'lines', 'whole', 'derived'] as const
export type DriverName = (typeof DRIVERS)[number]

export function mergeWith(driver: DriverName, base: string, ours: string, theirs: string, opts: { newer: 'ours' | 'theirs'; file: string }): MergeResult {
  switch (driver) {
    case 'entries':
      return mergeEntryFile(base, ours, theirs)
    case 'anchor':
      return mergeAnchor(base, ours, theirs)
    case 'keyed':
      return mergeKeyed(base, ours, theirs, opts.newer, opts.file)
    case 'registry':
      return mergeRegistry(base, ours, theirs)
    case 'volumes':
      return mergeVolumes(base, ours, theirs)
    case 'lines':
      return mergeLines(base, ours, theirs)
    case 'derived':
      // Computed from the other files (档/ rollups): ours stands until the next night recomputes it.
      return { text: ours, conflicts: [], notes: [] }
    case 'whole':
      return mergeWhole(base, ours, theirs)
  }
}

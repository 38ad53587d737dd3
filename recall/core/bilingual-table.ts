// bilingual.ts's two maps as the compiled package carries them (dist/data/, written by
// scripts/ship-data.ts with the same code that builds them at run time): reading CC-CEDICT's
// 11 MB of rows and building the maps cost most of a one-shot `cyrene memory recall`
// (decision 033). The table is sorted lines of UTF-8; a look-up is a binary search over its
// bytes, so loading it decodes nothing and builds no Map, no string per word.
//
//   cyrene-cedict-table <TAB> 2 <TAB> <builder signature> <TAB> <words> <TAB> <terms> <TAB> <byte where the terms start> <LF>
//   word <TAB> senses <LF> …            (sorted by the UTF-8 bytes of the word)
//   term <TAB> word <SP> word … <LF> …  (sorted by the UTF-8 bytes of the term)
//
// A table of another version or built by other code is not used (bilingual.ts builds from the rows).

import { readFileSync } from 'node:fs'
import { shippedFile } from './package-data.ts'

const MAGIC = 'cyrene-cedict-table'
const VERSION = '2'
const LF = 0x0a
const TAB = 0x09
/** Where the compiled package carries the table, inside dist/. */
export const TABLE_FILE = 'data/cc-cedict-tables.txt'

export interface SavedTables {
  zhEn: (word: string) => string | undefined
  enZh: (term: string) => readonly string[] | undefined
  entries: number
}

/** The two maps as one buffer (throws if a word or sense holds a tab or a line break: the format could not keep it). */
export function packTables(zhEn: ReadonlyMap<string, string>, enZh: ReadonlyMap<string, readonly string[]>, signature: string): Buffer {
  const section = (rows: [string, string][]): Buffer => {
    const lines = rows.map(([key, value]) => {
      if (/[\t\n\r]/.test(key) || /[\t\n\r]/.test(value) || key === '') throw new Error(`cc-cedict table: cannot keep ${JSON.stringify(key)}`)
      return { key: Buffer.from(key, 'utf8'), line: Buffer.from(`${key}\t${value}\n`, 'utf8') }
    })
    lines.sort((a, b) => Buffer.compare(a.key, b.key))
    for (let i = 1; i < lines.length; i++) if (Buffer.compare(lines[i - 1]!.key, lines[i]!.key) === 0) throw new Error('cc-cedict table: a key twice')
    return Buffer.concat(lines.map((l) => l.line))
  }
  const words = section([...zhEn])
  const terms = section(
    [...enZh].map(([term, list]) => {
      if (list.some((w) => w.includes(' ') || w === '')) throw new Error(`cc-cedict table: cannot keep the words of ${term}`)
      return [term, list.join(' ')]
    }),
  )
  // The header's own length is part of the offset it states: padded to a fixed width.
  const head = (termsAt: number): string => `${[MAGIC, VERSION, signature, zhEn.size, enZh.size, String(termsAt).padStart(12, '0')].join('\t')}\n`
  const headBytes = Buffer.byteLength(head(0))
  return Buffer.concat([Buffer.from(head(headBytes + words.length)), words, terms])
}

/** The look-ups over a packed buffer; undefined when it is not a table of this version built by `signature`. */
export function unpackTables(buf: Buffer, signature: string): SavedTables | undefined {
  const first = buf.indexOf(LF)
  const head = first < 0 ? [] : buf.toString('utf8', 0, first).split('\t')
  if (head.length !== 6 || head[0] !== MAGIC || head[1] !== VERSION || head[2] !== signature) return undefined
  const [entries, terms, termsAt] = [Number(head[3]), Number(head[4]), Number(head[5])]
  if (![entries, terms, termsAt].every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined
  if (termsAt < first + 1 || termsAt > buf.length || buf[termsAt - 1] !== LF || buf[buf.length - 1] !== LF) return undefined
  const zhEn = (word: string): string | undefined => find(buf, word, first + 1, termsAt)
  return {
    zhEn,
    enZh: (term) => find(buf, term, termsAt, buf.length)?.split(' '),
    entries,
  }
}

// Binary search over the lines of buf[from, to): probe the line around the middle byte,
// go right past it or left before it. A line without its tab ends the search (nothing found).
// The line's bounds and the comparison are byte loops here, not Buffer's native calls: a line is
// a few dozen bytes, and a look-up probes about seventeen of them, so the calls' own cost was most
// of a look-up (a step makes dozens).
function find(buf: Buffer, key: string, from: number, to: number): string | undefined {
  const wanted = Buffer.from(key, 'utf8')
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    let start = mid
    while (start > lo && buf[start - 1] !== LF) start--
    let tab = start
    while (tab < to && buf[tab] !== TAB && buf[tab] !== LF) tab++
    if (tab >= to || buf[tab] !== TAB) return undefined
    const c = compareKey(wanted, buf, start, tab)
    if (c < 0) {
      hi = start
      continue
    }
    let end = tab + 1
    while (end < to && buf[end] !== LF) end++
    if (end >= to) return undefined
    if (c === 0) return buf.toString('utf8', tab + 1, end)
    lo = end + 1
  }
  return undefined
}

/** Byte order of `wanted` against buf[start, end): negative before, 0 equal, positive after (Buffer.compare's order). */
function compareKey(wanted: Uint8Array, buf: Uint8Array, start: number, end: number): number {
  const n = Math.min(wanted.length, end - start)
  for (let i = 0; i < n; i++) {
    const d = wanted[i]! - buf[start + i]!
    if (d !== 0) return d
  }
  return wanted.length - (end - start)
}

/** The table the compiled package carries, when it was built by `signature`; undefined otherwise (not compiled, stale, unreadable). */
export function shippedTables(signature: string): SavedTables | undefined {
  const path = shippedFile(TABLE_FILE)
  if (path === undefined) return undefined
  try {
    return unpackTables(readFileSync(path), signature)
  } catch {
    return undefined
  }
}

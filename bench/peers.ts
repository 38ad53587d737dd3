// The systems the recall bench compares, behind one small interface: our index,
// the real `minisearch` package with default options (the shared README's
// baseline), and a textbook BM25 written out by hand (no stemming, stop words,
// pairs, recency or links) as a second, dependency-free reference.

import MiniSearch from 'minisearch'
import { RecallIndex, type RecallOptionsInput } from '../recall/core/index.ts'

export interface Retriever {
  add(id: string, text: string, at: string): void
  /** Best first; empty when the system abstains. */
  search(query: string, limit: number, now: Date): string[]
}

export class Ours implements Retriever {
  readonly index: RecallIndex
  private readonly abstain: boolean

  constructor(options: RecallOptionsInput | RecallIndex = {}, abstain = true) {
    this.index = options instanceof RecallIndex ? options : new RecallIndex(options)
    this.abstain = abstain
  }

  add(id: string, text: string, at: string): void {
    this.index.add({ id, text, at, source: 'entry' })
  }

  search(query: string, limit: number, now: Date): string[] {
    return this.index.search(query, { limit, now, abstain: this.abstain }).map((h) => h.id)
  }
}

/** minisearch 7 with default options: one field, its tokenizer, BM25+ scoring, no prefix or fuzzy search. */
export class MiniSearchPeer implements Retriever {
  private readonly engine = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] })
  private readonly pending: { id: string; text: string }[] = []

  add(id: string, text: string): void {
    this.pending.push({ id, text })
  }

  search(query: string, limit: number): string[] {
    this.flush()
    return this.engine
      .search(query)
      .slice(0, limit)
      .map((r) => String(r.id))
  }

  /** Adds are batched (addAll is minisearch's own fast path); called before the first search. */
  flush(): void {
    if (this.pending.length === 0) return
    this.engine.addAll(this.pending.splice(0))
  }
}

function plainWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

export class PlainBm25 implements Retriever {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>()
  private readonly ids: string[] = []
  private readonly lengths: number[] = []
  private total = 0

  private readonly words: (text: string) => string[]

  constructor(words: (text: string) => string[] = plainWords) {
    this.words = words
  }

  add(id: string, text: string): void {
    const doc = this.ids.length
    const words = this.words(text)
    const counts = new Map<string, number>()
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
    for (const [w, tf] of counts) {
      let list = this.postings.get(w)
      if (list === undefined) this.postings.set(w, (list = []))
      list.push({ doc, tf })
    }
    this.ids.push(id)
    this.lengths.push(words.length)
    this.total += words.length
  }

  search(query: string, limit: number): string[] {
    const n = this.ids.length
    const avg = this.total / n
    const scores = new Map<number, number>()
    for (const w of new Set(this.words(query))) {
      const list = this.postings.get(w)
      if (list === undefined) continue
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
      for (const { doc, tf } of list) {
        const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[doc]!) / avg))
        scores.set(doc, (scores.get(doc) ?? 0) + s)
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || (this.ids[a[0]]! < this.ids[b[0]]! ? -1 : 1))
      .slice(0, limit)
      .map(([doc]) => this.ids[doc]!)
  }
}

// CJK text as single characters and adjacent pairs, other text as lower-case words:
// the usual CJK-aware BM25 baseline (what a search engine's CJK analyzer does).
function cjkBigramTerms(text: string): string[] {
  const out: string[] = []
  for (const run of text.toLowerCase().match(/\p{Script=Han}+|[\p{L}\p{N}]+/gu) ?? []) {
    if (!/\p{Script=Han}/u.test(run)) {
      out.push(run)
      continue
    }
    const chars = Array.from(run)
    if (chars.length === 1) out.push(chars[0]!)
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!)
  }
  return out
}

/** Textbook BM25 (k1 1.2, b 0.75) over CJK bigrams (a lone character as itself) and words. */
export class CjkBigramBm25 implements Retriever {
  private readonly inner = new PlainBm25(cjkBigramTerms)

  add(id: string, text: string): void {
    this.inner.add(id, text)
  }

  search(query: string, limit: number): string[] {
    return this.inner.search(query, limit)
  }
}

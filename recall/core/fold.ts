// Traditional → simplified folding, one character at a time, for documents and
// queries alike: a zh-TW person's 貓 and 藥 are the same terms as 猫 and 药. The
// table is opencc-js's own (dict/TSCharacters: traditional characters to their
// simplified forms, the first when several are listed). Phrase-level conversion
// (opencc's converter) was measured at ~65 µs per entry (6.5 s per 100,000 entries)
// against a table lookup's few µs, and folding only has to be the same on both
// sides, not good Chinese. Where the package is missing, nothing is folded (the
// tokenizer signature says so, so an index built either way is not mixed).

import { packageFile, readDefaultExportJson } from './package-data.ts'

/** Taiwan-standard variants the table lists under another traditional form (裡 vs 裏). */
const TAIWAN_VARIANTS: Readonly<Record<string, string>> = { 裡: '里', 著: '着', 為: '为', 啟: '启', 眾: '众', 汙: '污' }

/** Code unit → its simplified code unit (0: leave it), for the Basic Multilingual Plane, where every folded pair of the table lives. */
let table: Uint16Array | null | undefined
let tableSize = 0

function foldTable(): Uint16Array | null {
  if (table !== undefined) return table
  try {
    const path = packageFile('opencc-js', 'dist/esm-lib/dict/TSCharacters.js')
    const raw = path === undefined ? undefined : readDefaultExportJson(path)
    if (typeof raw !== 'string') return (table = null)
    const map = new Uint16Array(0x10000)
    const put = (from: string, to: string): void => {
      // One UTF-16 unit each side: a pair outside the BMP (a handful of rare characters) is left alone.
      if (from.length !== 1 || to.length !== 1 || from === to) return
      if (map[from.charCodeAt(0)] === 0) tableSize++
      map[from.charCodeAt(0)] = to.charCodeAt(0)
    }
    for (const pair of raw.split('|')) {
      const [from, to] = pair.split(' ')
      if (from !== undefined && to !== undefined) put(from, to)
    }
    for (const [from, to] of Object.entries(TAIWAN_VARIANTS)) put(from, to)
    return (table = map)
  } catch {
    // A broken or missing package: recall still works, without folding.
    return (table = null)
  }
}

/** 'opencc<n>' (n characters folded), or 'none' when the table could not be loaded (part of the tokenizer signature). */
export function foldSignature(): string {
  return foldTable() === null ? 'none' : `opencc${tableSize}`
}

/** `text` with every traditional character replaced by its simplified form. */
export function foldTraditional(text: string): string {
  const map = foldTable()
  if (map === null) return text
  let out: string[] | undefined
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const to = map[text.charCodeAt(i)]!
    if (to === 0) continue
    out ??= []
    out.push(text.slice(from, i), String.fromCharCode(to))
    from = i + 1
  }
  if (out === undefined) return text
  out.push(text.slice(from))
  return out.join('')
}

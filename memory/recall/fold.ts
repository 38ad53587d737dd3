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

let table: Map<string, string> | null | undefined

function foldTable(): Map<string, string> | null {
  if (table !== undefined) return table
  try {
    const path = packageFile('opencc-js', 'dist/esm-lib/dict/TSCharacters.js')
    const raw = path === undefined ? undefined : readDefaultExportJson(path)
    if (typeof raw !== 'string') return (table = null)
    const map = new Map<string, string>()
    for (const pair of raw.split('|')) {
      const [from, to] = pair.split(' ')
      if (from !== undefined && to !== undefined && from !== to && [...from].length === 1 && [...to].length === 1) map.set(from, to)
    }
    for (const [from, to] of Object.entries(TAIWAN_VARIANTS)) if (from !== to) map.set(from, to)
    return (table = map)
  } catch {
    // A broken or missing package: recall still works, without folding.
    return (table = null)
  }
}

/** 'opencc' when traditional characters are folded, 'none' when the table could not be loaded (part of the tokenizer signature). */
export function foldSignature(): string {
  return foldTable() === null ? 'none' : `opencc${foldTable()!.size}`
}

const HAN = /\p{Script=Han}/gu

/** `text` with every traditional character replaced by its simplified form. */
export function foldTraditional(text: string): string {
  const map = foldTable()
  if (map === null) return text
  return text.replace(HAN, (ch) => map.get(ch) ?? ch)
}

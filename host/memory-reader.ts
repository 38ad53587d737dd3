import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ANCHOR_FILES, anchorRel, parseAnchor } from '../memory/anchors.ts'
import { entriesOf, parseEntryFile } from '../memory/entry.ts'
import { dayFileRel, localDate } from '../memory/paths.ts'
import type { AnchorKey } from '../memory/settings.ts'
import { frameOverhead } from '../memory/prompt-safe.ts'
import { composeMemoryBlock, MEMORY_TITLE, type AnchorView, type MemoryBlockResult, type RecentEntry } from './memory-block.ts'

function fingerprint(path: string): string {
  try {
    const st = statSync(path)
    return `${st.mtimeMs}:${st.size}`
  } catch {
    return '-'
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** The person's core first, then the dated sections, newest first (the budget cuts the oldest). */
function anchorParts(file: string): AnchorView['parts'] {
  const doc = parseAnchor(file)
  return [{ text: doc.core }, ...[...doc.sections].reverse().map((s) => ({ date: s.date, text: s.text }))]
}

/**
 * DSH reads prompt variables synchronously, right when it assembles a step, so
 * the text of `{{cyrene_memory}}` is read here synchronously too: a handful of
 * small files (four anchors, the newest days), re-parsed only when one of them
 * changed. Whatever a person wrote by hand or through the CLI is in the next
 * request. Writes are atomic renames, so a read sees a whole old or a whole new file.
 */
export class MemoryReader {
  private readonly root: string
  private readonly days: number
  /** Characters of `{{cyrene_memory}}` as the model reads it: frame and closing marker included. */
  private readonly budget: number
  private key = ''
  private last: MemoryBlockResult = { text: '', cut: 0 }

  constructor(root: string, days: number, budget: number) {
    this.root = root
    this.days = days
    this.budget = budget
  }

  private files(now: Date): { anchors: [AnchorKey, string][]; days: [string, string][] } {
    const anchors = (Object.keys(ANCHOR_FILES) as AnchorKey[]).map((key): [AnchorKey, string] => [key, join(this.root, anchorRel(key))])
    const days = Array.from({ length: this.days }, (_, back): [string, string] => {
      // Entries are filed under the local day they happened on, as the store files them.
      const date = localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - back, 12))
      return [date, join(this.root, dayFileRel(date))]
    })
    return { anchors, days }
  }

  /** The current block; throws only if the files cannot be read at all (the caller keeps the last one). */
  read(now = new Date()): MemoryBlockResult {
    const { anchors, days } = this.files(now)
    const key = [...anchors.map(([, p]) => p), ...days.map(([, p]) => p)].map((p) => `${p}=${fingerprint(p)}`).join('|')
    if (key === this.key) return this.last
    const recent: RecentEntry[] = []
    for (const [date, path] of days) {
      const text = readOr(path)
      if (text === '') continue
      for (const entry of entriesOf(parseEntryFile(text, path)).reverse()) recent.push({ date, text: entry.text })
    }
    this.last = composeMemoryBlock(
      anchors.map(([k, path]) => ({ key: k, title: ANCHOR_FILES[k], parts: anchorParts(readOr(path)) })),
      recent,
      // The runtime draws the frame around this block; its header and marker come out of the same budget.
      Math.max(0, this.budget - frameOverhead(MEMORY_TITLE)),
    )
    this.key = key
    return this.last
  }
}

import { charCount, clip } from '../prompt/index.ts'
import { journalRel } from '../memory/paths.ts'
import type { MemoryStore } from '../memory/index.ts'
import { assertWellFormed, RefusedError } from '../memory/format.ts'
import type { VolumeSuggestion } from './record.ts'

/**
 * The dream journal `梦境/YYYY/MM/YYYY-MM-DD.md`: one file per night, shared
 * by every session (the memory is one). Each dream adds a section; a second
 * write in the same dream (or a second dream the same night) appends, it
 * never replaces. When the model wrote nothing, the section says 「本次未产出」
 * (`NO_OUTPUT`) — the day files are never copied in its place. Where the journal lives and that
 * marker are the store's layout (memory/paths.ts): recall reads them too.
 */

export interface JournalPart {
  /** The section heading, e.g. 「23:30 · 夜梦」. */
  heading?: string
  text: string
  suggestion?: Omit<VolumeSuggestion, 'night'>
}

/** The command a person runs to act on a suggestion (the AI only suggests, CONTRACT#volumes). */
export function newVolumeCommand(reason: string): string {
  return `/cyrene new-volume confirm ${reason.replace(/\s+/g, ' ').trim()}`
}

/** Markdown for one addition. Pure. */
function journalSection(part: JournalPart): string {
  const lines: string[] = []
  if (part.heading !== undefined) lines.push(`## ${part.heading}`, '')
  lines.push(part.text.trim())
  if (part.suggestion !== undefined) {
    lines.push('', '### 新卷建议（只是建议，由人决定）', '', `- 理由：${part.suggestion.reason}`, `- 变化：${part.suggestion.changed}`)
    lines.push(`- 若要开卷：\`${newVolumeCommand(part.suggestion.reason)}\``)
  }
  return `${lines.join('\n')}\n`
}

/** Append to the night's journal under the write lock (quota counted); returns the file. */
export async function appendJournal(store: MemoryStore, night: string, part: JournalPart, maxChars: number): Promise<string> {
  return await appendDreamText(store, journalRel(night), `梦志 ${night}`, part, maxChars)
}

/** Append a section to a file the dream writes (journal, month echo, year ring); the first write adds the title. */
export async function appendDreamText(store: MemoryStore, rel: string, title: string, part: JournalPart, maxChars: number): Promise<string> {
  if (typeof part.text !== 'string' || part.text.trim() === '') throw new RefusedError('bad-input', 'the journal text is empty; nothing was written')
  assertWellFormed(part.text, 'journal text')
  if (charCount(part.text) > maxChars)
    throw new RefusedError(
      'too-long',
      `the journal text has ${charCount(part.text)} characters, more than ${maxChars}; write it in parts (a second call appends)`,
    )
  for (const s of [part.suggestion?.reason, part.suggestion?.changed]) if (s !== undefined) assertWellFormed(s, 'suggestion')
  const suggestion = part.suggestion === undefined ? undefined : { reason: clip(part.suggestion.reason, 300), changed: clip(part.suggestion.changed, 600) }
  await store.withWriteLock(async (lock) => {
    const current = await store.readForRewrite(rel)
    const head = current === '' ? `# ${title}\n\n` : current.replace(/\n*$/, '\n\n')
    const next = head + journalSection({ ...part, ...(suggestion === undefined ? {} : { suggestion }) })
    await store.checkQuota(Buffer.byteLength(next) - Buffer.byteLength(current), false)
    await store.replaceFile(rel, next, lock)
  })
  return rel
}

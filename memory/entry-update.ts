import { joinSegments, parseEntryFile, reserializeSegment, type Entry, type EntryMeta, type Segment } from './entry.ts'
import { audit } from './audit.ts'
import { buildMeta, RefusedError, linksOf, splitLink, type NewEntry, type Writer } from './validate.ts'
import { claimsPerson, isMarked, isPersonBase, recordMarks, type MarkedStore } from './person-marks.ts'
import type { StoreCore, StoredEntry } from './store-core.ts'

/**
 * Changing what is already written: an entry's edit, and the check every
 * write makes that its links name entries that exist. New entries are
 * appended by the store itself (store.ts `write`, `appendEntries`); an edit
 * reads, merges and rewrites one file under the write lock.
 */

/**
 * Refuses links to ids that are not in the store (`check` would report each
 * one as an error). Called by write and update, so the command line and the
 * model's memory_write get the same refusal.
 */
export async function assertLinkTargets(store: StoreCore, links: readonly string[]): Promise<void> {
  const missing: string[] = []
  for (const target of new Set(links.map((l) => splitLink(l).target))) if ((await store.get(target)) === undefined) missing.push(target)
  if (missing.length === 0) return
  throw new RefusedError(
    'bad-link',
    `no entry with id ${missing.map((m) => JSON.stringify(m)).join(', ')} to link to; nothing was written. Link only to ids that exist: list them with \`cyrene memory list\` or find them with \`cyrene memory search\` (the model: memory_search).`,
    { variant: 'missing', ids: missing.map((m) => JSON.stringify(m)).join(', ') },
  )
}

/**
 * Change an existing day entry (MemoryStore.update). Pending entries are
 * read-only (they are only ever promoted into a new day entry). `base`
 * entries: person only. A person's edit keeps 元/person-marks.json in step.
 */
export async function updateEntry(store: MarkedStore, id: string, patch: Partial<NewEntry>, by: Writer): Promise<StoredEntry> {
  const found = await store.get(id)
  if (found === undefined)
    throw new RefusedError('not-found', `no entry with id ${JSON.stringify(id)}; list ids with \`cyrene memory list\``, {
      variant: 'entry',
      id: JSON.stringify(id),
    })
  if (found.area !== 'day')
    throw new RefusedError('read-only', `entry ${id} is in ${found.file} (余页/待定), which is never edited; promote it instead`, { id, file: found.file })
  if (by !== 'person' && isPersonBase(store.marks().marks, found))
    throw new RefusedError('person-only', `entry ${id} is a base entry: only the person may change it`, { variant: 'base-entry', id })
  // A person's edit keeps the record in step with the new text; it never vouches for a claim it did not make.
  const remark = by === 'person' && (isMarked(store.marks().marks, found) || patch.base === true)
  const had: Partial<NewEntry> = metaAsInput(found.meta)
  // A base claim the record does not back is not carried into the checks: the entry is the model's (CONTRACT#person-marks).
  if (!isPersonBase(store.marks().marks, found)) delete had.base
  const merged: NewEntry = { ...had, text: found.text, ...patch }
  const { text, meta, notes: _notes } = buildMeta(merged, by, store.limits)
  // Only links this update adds: one left dangling by a hand edit must not block other changes.
  const linked = new Set(linksOf(found.meta.links).map((l) => splitLink(l).target))
  if ('links' in patch)
    await assertLinkTargets(
      store,
      linksOf(meta.links).filter((l) => !linked.has(splitLink(l).target)),
    )
  const next: Entry = { text, meta: { ...found.meta } }
  for (const k of ['kind', 'axis', 'reason', 'links', 'src_quote', 'src_ids', 'consequence', 'entropy', 'legacy', 'aim', 'nature', 'base'] as const) {
    if (k in patch) {
      if (meta[k] === undefined) delete next.meta[k]
      else next.meta[k] = meta[k] as never
    }
  }
  return await store.withWriteLock(async (lock) => {
    const parsed = parseEntryFile(await store.readForRewrite(found.file), found.file)
    const idx = parsed.segments.findIndex((s) => s.type === 'entry' && s.entry.meta.id === id)
    if (idx < 0) throw new RefusedError('not-found', `entry ${id} moved while being edited; try again`, { variant: 'moved', id })
    const seg = parsed.segments[idx] as Extract<Segment, { type: 'entry' }>
    const unchanged = reserializeSegment(seg, next) === seg.raw
    if (!unchanged) next.meta.edited_at = store.now().toISOString()
    const segs = [...parsed.segments]
    segs[idx] = { ...seg, raw: reserializeSegment(seg, next), entry: next }
    if (!unchanged) {
      if (remark && claimsPerson(next.meta)) await recordMarks(store, lock, [next])
      await store.replaceFile(found.file, joinSegments(segs), lock)
      await audit(store, { op: 'update', id, by, file: found.file })
    }
    return { ...found, text: next.text, meta: next.meta }
  })
}

function metaAsInput(meta: EntryMeta): Partial<NewEntry> {
  const out: Partial<NewEntry> = {}
  for (const k of ['kind', 'axis', 'reason', 'links', 'src_quote', 'src_ids', 'consequence', 'entropy', 'legacy', 'aim', 'nature', 'base'] as const) {
    if (meta[k] !== undefined) (out as Record<string, unknown>)[k] = meta[k]
  }
  return out
}

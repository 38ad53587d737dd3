import { LINK_TYPES } from './entry.ts'
import type { MemoryStore } from './store.ts'
import { RefusedError, splitLink, type Writer } from './validate.ts'
import { isPersonBase, ownerOf } from './person-marks.ts'

/**
 * Typed links between two existing entries (CONTRACT#entry-format `links`, spec §5:
 * `"<id>|<type>"`, type one of 因果 相似 对立 时序 归属 推断 or empty). A link
 * lives on the entry it starts from and is written through `store.update`,
 * so the store's own rules hold: the target must exist, a pending entry is
 * never edited, the person's entries (written or imported) are the person's. Only `links` changes: the
 * entry's text and every other field stay as they were.
 */
export interface LinkInput {
  from: string
  to: string
  type: string
}

export interface LinkResult {
  from: string
  link: string
  /** false when this exact link was already there (nothing written). */
  changed: boolean
  /** A link to the same target with another type, replaced by this one. */
  replaced?: string
}

const targetOf = (link: string) => splitLink(link).target

export async function linkEntries(store: MemoryStore, input: LinkInput, ctx: { by: Writer }): Promise<LinkResult> {
  const from = typeof input.from === 'string' ? input.from.trim() : ''
  const to = typeof input.to === 'string' ? input.to.trim() : ''
  const type = typeof input.type === 'string' ? input.type.trim() : ''
  if (from === '' || to === '')
    throw new RefusedError('bad-input', 'give both ids: from (the entry the link starts at) and to (the entry it points to)', {
      variant: 'link-ids',
    })
  if (from === to) throw new RefusedError('bad-input', 'an entry cannot link to itself; give two different ids', { variant: 'link-self' })
  if (type !== '' && !(LINK_TYPES as readonly string[]).includes(type))
    throw new RefusedError('bad-input', `type must be one of ${LINK_TYPES.join(' ')} (or empty); nothing was written`, {
      variant: 'link-type',
      types: LINK_TYPES.join(' '),
    })
  const entry = await store.get(from)
  if (entry === undefined)
    throw new RefusedError('not-found', `no entry with id ${JSON.stringify(from)}; find ids with memory_search`, {
      variant: 'link-from',
      id: JSON.stringify(from),
    })
  // An entry the person wrote (the person-marks record backs it) or imported is the person's: the model adds no link
  // to it, base or not (docs/decisions/285); a claim the record does not back is the model's (CONTRACT#person-marks).
  const marks = store.marks().marks
  if (ctx.by !== 'person' && (isPersonBase(marks, entry) || ownerOf(marks, entry) !== 'model'))
    throw new RefusedError(
      'person-only',
      `entry ${from} is the person's (written or imported by them): only the person changes it. Link from the other entry instead (from ${to} to ${from}); linking *to* the person's entry is fine`,
      { variant: 'link-base', from, to },
    )
  const link = `${to}|${type}`
  const links = Array.isArray(entry.meta.links) ? entry.meta.links.filter((l): l is string => typeof l === 'string') : []
  if (links.includes(link)) return { from, link, changed: false }
  const replaced = links.find((l) => targetOf(l) === to)
  await store.update(from, { links: [...links.filter((l) => targetOf(l) !== to), link] }, ctx)
  return { from, link, changed: true, ...(replaced !== undefined ? { replaced } : {}) }
}

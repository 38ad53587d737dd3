import { promises as fs } from 'node:fs'
import { parseEntryFile, type Entry, type ParseProblem } from './entry.ts'
import { stampOf, type FileStamp } from './file-stamp.ts'
import type { Said } from './said.ts'
import { decodeUtf8, inspectBelow, readNoFollow, type BelowRoot } from './fsio.ts'

/** What the read path keeps of a file: its entries, what could not be read, where loose text starts. */
export interface CatalogFile {
  file: string
  entries: Array<{ entry: Entry; line: number }>
  problems: ParseProblem[]
  /** Lines where text without a comment after it starts (kept in the file, not an entry). */
  loose: number[]
}

interface CachedFile {
  stamp: FileStamp
  catalog: CatalogFile
}

/**
 * The parsed entries of the store's files, kept per file and checked by the
 * file's stamp (size and mtime, file-stamp.ts). Only the parse is kept, never
 * the bytes: a rewrite always reads the file again.
 */
export class FileCatalog {
  private readonly cache = new Map<string, CachedFile>()
  private readonly root: string
  private readonly pathOf: (rel: string) => string

  constructor(root: string, pathOf: (rel: string) => string) {
    this.root = root
    this.pathOf = pathOf
  }

  /**
   * `walked`: rel came from walking the root, which never descends into a
   * linked folder, so only the file itself is looked at (one lstat, as many
   * as before links were checked); otherwise every component below the root is.
   */
  async of(rel: string, walked: boolean): Promise<CatalogFile> {
    const full = this.pathOf(rel)
    // A link below the root is never read through (its content is not the store's); `check` reports it.
    const at = walked ? await lookAtFile(full, rel) : await inspectBelow(this.root, full)
    if (at.kind !== 'file') {
      this.cache.delete(rel)
      if (at.kind === 'missing') return emptyCatalog(rel)
      return emptyCatalog(rel, {
        message: `${at.rel} ${at.kind === 'link' ? 'is a symbolic link (the store never follows links below its root)' : 'is not a regular file'}; it is not read as memories`,
        said: { code: at.kind === 'link' ? 'format.link' : 'format.not-file', params: { file: at.rel } },
      })
    }
    const stamp = stampOf(at.stat)
    const hit = this.cache.get(rel)
    if (hit !== undefined && hit.stamp === stamp) return hit.catalog
    let bytes: Buffer
    try {
      bytes = await readNoFollow(full)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ELOOP') throw e
      // Removed, or replaced by a link, since the look above.
      this.cache.delete(rel)
      return emptyCatalog(
        rel,
        code === 'ELOOP'
          ? {
              message: `${rel} is a symbolic link (the store never follows links below its root); it is not read as memories`,
              said: { code: 'format.link', params: { file: rel } },
            }
          : undefined,
      )
    }
    const { text, valid } = decodeUtf8(bytes)
    const parsed = parseEntryFile(text, rel)
    if (!valid)
      parsed.problems.unshift({
        file: rel,
        line: 1,
        message: 'the file is not valid UTF-8; it is shown with replacement characters and will not be rewritten until it is re-saved as UTF-8',
        said: { code: 'format.not-utf8' },
      })
    const catalog: CatalogFile = { file: rel, entries: [], problems: parsed.problems, loose: [] }
    for (const seg of parsed.segments) {
      if (seg.type === 'entry') catalog.entries.push({ entry: seg.entry, line: seg.line })
      else if (seg.type === 'loose' && seg.raw.trim() !== '') catalog.loose.push(seg.line)
    }
    this.cache.set(rel, { stamp, catalog })
    return catalog
  }
}

/** The file alone, with lstat (never through a link). */
async function lookAtFile(full: string, rel: string): Promise<BelowRoot> {
  try {
    const st = await fs.lstat(full)
    if (st.isSymbolicLink()) return { kind: 'link', rel, target: await fs.readlink(full).catch(() => '?') }
    return st.isFile() ? { kind: 'file', stat: st } : { kind: 'not-file', rel }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    throw e
  }
}

function emptyCatalog(file: string, problem?: { message: string; said: Said }): CatalogFile {
  return { file, entries: [], problems: problem === undefined ? [] : [{ file, line: 1, ...problem }], loose: [] }
}

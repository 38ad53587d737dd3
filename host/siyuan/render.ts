import { createHash } from 'node:crypto'
import { isTempName } from '../../memory/fsio.ts'
import { LAYOUT } from '../../memory/index.ts'

/** Store folders mirrored into SiYuan: entries, anchors, dream journals, rollups, margin (元/ never). */
const SYNCED = [LAYOUT.anchors, '岁月涟漪', LAYOUT.dreams, LAYOUT.rolling, LAYOUT.margin]

export function isSynced(rel: string): boolean {
  const name = rel.split('/').at(-1) ?? ''
  return rel.endsWith('.md') && !isTempName(name) && SYNCED.some((d) => rel === d || rel.startsWith(`${d}/`))
}

/** The SiYuan document path of a store file: the same folders, without `.md`. */
export function docPath(rel: string): string {
  return `/${rel.replace(/\.md$/, '')}`
}

/**
 * A store file as SiYuan shows it: the entries' metadata lines
 * (`<!--cyrene:{…}-->`) are dropped, so they never appear as text there.
 */
export function renderDoc(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('<!--cyrene:'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

export function contentHash(markdown: string): string {
  return createHash('sha256').update(markdown).digest('hex').slice(0, 32)
}

import { createHash } from 'node:crypto'
import { isTempName } from '../memory/files.ts'
import { LAYOUT } from '../memory/paths.ts'

/** Store folders mirrored into SiYuan: entries, anchors, dream journals, rollups, margin (元/ never). */
const SYNCED = [LAYOUT.anchors, '岁月涟漪', LAYOUT.dreams, LAYOUT.rolling, LAYOUT.margin]

export function isSynced(rel: string): boolean {
  const name = rel.split('/').at(-1) ?? ''
  return rel.endsWith('.md') && !isTempName(name) && SYNCED.some((d) => rel === d || rel.startsWith(`${d}/`))
}

// Go's strings.TrimSpace (unicode.IsSpace), which the kernel trims segments with: not JavaScript's trim (that also takes U+FEFF, and not U+0085).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const EDGE_SPACE = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g')

/**
 * The SiYuan document path of a store file: the same folders, without `.md`,
 * written as the kernel stores it, so the path looked up is the path created:
 * createDocWithMd removes line breaks, U+2028/9 and tabs from the last segment
 * and keeps its first 512 characters (kernel/api/filetree.go), then trims the
 * spaces around every segment (kernel/model/path.go → util/path.go TrimSpaceInPath).
 */
export function docPath(rel: string): string {
  const parts = rel.replace(/\.md$/, '').split('/')
  const last = [...(parts.pop() ?? '').replace(/\r\n|\r|\n|\u2028|\u2029|\t/g, '')].slice(0, 512).join('')
  // Cleaned (path.Join) before the trim, as the kernel does: a segment of spaces stays as an empty one.
  const segments = [...parts, last].filter((p) => p !== '' && p !== '.').map((p) => p.replace(EDGE_SPACE, ''))
  return `/${segments.join('/')}`
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

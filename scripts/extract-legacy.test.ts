import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scratchDir } from '../tests/harness/scratch.ts'
import { PACKAGE_ROOT } from './build.ts'
import { extractLegacy, findLegacyPersonas } from './extract-legacy.ts'

const FIXTURE = join(PACKAGE_ROOT, 'tests/fixtures/legacy-plugin')
function tempRoot(): string {
  const root = scratchDir('legacy')
  cpSync(join(PACKAGE_ROOT, 'persona'), join(root, 'persona'), { recursive: true })
  return root
}

describe('extract-legacy', () => {
  it('finds persona rows in presets, groups and insert lists, sorted to chat and work', () => {
    const found = findLegacyPersonas(FIXTURE)
    expect(found.map((f) => [f.target, f.text.trim()])).toEqual([
      ['chat', '旧版昔涟：你好呀，{{user_nickname}}。'],
      ['work', '旧版德谬歌：先读后写。'],
    ])
  })

  it('writes *.legacy.md beside persona/ and leaves persona/ alone', () => {
    const root = tempRoot()
    const before = readFileSync(join(root, 'persona/chat.md'), 'utf8')
    const { written } = extractLegacy(root, FIXTURE, false)
    expect(written.map((w) => w.slice(root.length))).toEqual(['/persona/chat.legacy.md', '/persona/work.legacy.md'])
    expect(readFileSync(join(root, 'persona/chat.legacy.md'), 'utf8')).toBe('旧版昔涟：你好呀，{{user_nickname}}。\n')
    expect(readFileSync(join(root, 'persona/chat.md'), 'utf8')).toBe(before)
  })

  it('replaces persona/ only with --write', () => {
    const root = tempRoot()
    extractLegacy(root, FIXTURE, true)
    expect(readFileSync(join(root, 'persona/work.md'), 'utf8')).toBe('旧版德谬歌：先读后写。\n')
  })

  it('finds nothing in a folder without persona rows, and skips broken YAML', () => {
    const root = tempRoot()
    const empty = join(root, 'empty')
    mkdirSync(empty)
    writeFileSync(join(empty, 'broken.yml'), '- id: [unclosed\n')
    expect(extractLegacy(root, empty, true).written).toEqual([])
  })
})

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WorldbookLibrary } from './library.ts'
import { starterFolder, worldbookFolders } from './places.ts'

let dir: string
let starter: string
let person: string
const file = (folder: string, name: string, text: string | Buffer) => writeFileSync(join(folder, `${name}.md`), text)
const keyword = (key: string, body: string, extra = '') => `---\nkeys: [${key}]\n${extra}---\n${body}\n`

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cyrene-wb-'))
  starter = join(dir, 'starter')
  person = join(dir, 'root', '世界书')
  mkdirSync(starter, { recursive: true })
  mkdirSync(person, { recursive: true })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const library = () =>
  new WorldbookLibrary([
    { source: 'starter', dir: starter },
    { source: 'person', dir: person },
  ])

describe('WorldbookLibrary', () => {
  it('a person’s file replaces the starter entry of the same name; enabled: no switches it off', () => {
    file(starter, '甲', keyword('甲', '出厂的甲'))
    file(starter, '乙', keyword('乙', '出厂的乙'))
    file(starter, '丙', keyword('丙', '出厂的丙'))
    file(person, '甲', keyword('甲', '我的甲'))
    file(person, '乙', '---\nenabled: no\n---\n')
    const book = library().current()
    const byName = Object.fromEntries(book.entries.map((e) => [e.name, e]))
    expect(byName['甲']).toMatchObject({ body: '我的甲', source: 'person', enabled: true })
    expect(byName['乙']).toMatchObject({ source: 'person', enabled: false })
    expect(byName['丙']).toMatchObject({ body: '出厂的丙', source: 'starter' })
    expect(book.overridden.sort()).toEqual(['乙', '甲'])
  })

  it('bad files are skipped with the reason, never thrown: YAML, not UTF-8, a link, too big, a folder; other names are ignored', () => {
    file(person, 'yaml', '---\nkeys: [a\n---\nx')
    file(person, 'gbk', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xc4, 0xe3, 0x0a]))
    file(person, 'big', keyword('a', 'x'.repeat(70_000)))
    file(starter, 'target', keyword('t', 'x'))
    symlinkSync(join(starter, 'target.md'), join(person, 'link.md'))
    mkdirSync(join(person, 'folder.md'))
    writeFileSync(join(person, 'notes.txt'), 'not an entry')
    writeFileSync(join(person, '.hidden.md'), 'x')
    writeFileSync(join(person, 'a.md.tmp-123-abcdef12'), 'x')
    const book = library().current()
    const why = Object.fromEntries(book.skipped.map((s) => [s.file.slice(person.length + 1), s.why]))
    expect(Object.keys(why).sort()).toEqual(['big.md', 'folder.md', 'gbk.md', 'link.md', 'yaml.md'])
    expect(why['yaml.md']).toContain('not valid YAML')
    expect(why['gbk.md']).toContain('not valid UTF-8')
    expect(why['link.md']).toContain('symbolic link')
    expect(why['big.md']).toContain('over the 65536')
    expect(book.entries.map((e) => e.name)).toEqual(['target'])
  })

  it('missing folders are no problem; a folder that is a link is refused', () => {
    rmSync(person, { recursive: true })
    expect(library().current().unreadable).toEqual([])
    symlinkSync(starter, person)
    expect(library().current().unreadable[0]!.why).toContain('symbolic link')
  })

  it('an edit, a new file and a removal are seen at the next call; nothing changed = the same result', () => {
    const lib = library()
    file(person, 'a', keyword('a', '第一版'))
    const first = lib.current()
    expect(lib.current()).toBe(first)
    file(person, 'a', keyword('a', '第二版，长一点'))
    expect(lib.current().entries[0]!.body).toBe('第二版，长一点')
    // Same size, new time: still seen.
    file(person, 'a', keyword('a', '第三版，长一点'))
    utimesSync(join(person, 'a.md'), new Date(), new Date(Date.now() + 5000))
    expect(lib.current().entries[0]!.body).toBe('第三版，长一点')
    file(person, 'b', keyword('b', 'B'))
    expect(lib.current().entries.map((e) => e.name)).toEqual(['a', 'b'])
    rmSync(join(person, 'a.md'))
    expect(lib.current().entries.map((e) => e.name)).toEqual(['b'])
  })

  it('a shipped folder is listed once for the life of the library; the person’s folder is looked at every time', () => {
    file(starter, 'a', keyword('a', 'x'))
    const lib = new WorldbookLibrary([
      { source: 'starter', dir: starter, shipped: true },
      { source: 'person', dir: person },
    ])
    expect(lib.current().entries.map((e) => e.name)).toEqual(['a'])
    file(starter, 'b', keyword('b', 'x'))
    file(person, 'c', keyword('c', 'x'))
    expect(
      lib
        .current()
        .entries.map((e) => e.name)
        .sort(),
    ).toEqual(['a', 'c'])
    // A new library (the host after an upgrade) lists it again.
    expect(
      new WorldbookLibrary([{ source: 'starter', dir: starter, shipped: true }])
        .current()
        .entries.map((e) => e.name)
        .sort(),
    ).toEqual(['a', 'b'])
    expect(worldbookFolders(undefined)[0]!.shipped).toBe(true)
  })

  it('a shipped folder that could not be listed is looked at again', () => {
    const shipped = join(dir, 'shipped')
    symlinkSync(starter, shipped)
    const lib = new WorldbookLibrary([{ source: 'starter', dir: shipped, shipped: true }])
    expect(lib.current().unreadable.map((u) => u.file)).toEqual([shipped])
    rmSync(shipped)
    mkdirSync(shipped)
    file(shipped, 'a', keyword('a', 'x'))
    const book = lib.current()
    expect(book.unreadable).toEqual([])
    expect(book.entries.map((e) => e.name)).toEqual(['a'])
  })

  it('the shipped starter worldbook loads whole: constant entries and keyword entries, no file skipped', () => {
    const book = new WorldbookLibrary(worldbookFolders(undefined)).current()
    expect(worldbookFolders(undefined)[0]!.dir).toBe(starterFolder())
    expect(book.skipped).toEqual([])
    expect(book.warnings).toEqual([])
    expect(book.entries.filter((e) => e.constant).length).toBeGreaterThanOrEqual(3)
    expect(book.entries.filter((e) => !e.constant).length).toBeGreaterThanOrEqual(12)
  })
})

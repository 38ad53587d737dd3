import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { crc32 } from 'node:zlib'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from './main.ts'
import { memoryIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { zip } from '../whale/testing/zip.ts'

const FIXTURE = fileURLToPath(new URL('../tests/fixtures/worldbook/st-world.json', import.meta.url))

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ DSH_HOME: t.home, LANG: 'en_US.UTF-8' }, t.home)
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}
const folder = () => join(t.root, '世界书')

describe('cyrene worldbook', () => {
  it('import --dry-run writes nothing and says what it would write', async () => {
    const r = await run('worldbook', 'import', FIXTURE, '--dry-run')
    expect(r.code).toBe(0)
    expect(r.out).toContain('would write 9 entries')
    expect(r.out).toContain('refused entries.9: no content')
    await expect(fs.readdir(folder())).rejects.toThrow(/ENOENT/)
    // Nor does it lay out a store where there was none: no folders, no marks record, no audit line.
    await expect(fs.lstat(t.root)).rejects.toThrow(/ENOENT/)
  })

  it('a world with nothing to import (no entries, or none with text) is refused (exit 2), and no store is made', async () => {
    const empty = join(t.home, 'empty.json')
    await fs.writeFile(empty, JSON.stringify({ entries: {} }))
    const none = await run('worldbook', 'import', empty)
    expect(none.code).toBe(2)
    expect(none.err).toContain('no entry to import (0 entries without text or not entries at all); nothing was written')
    const textless = join(t.home, 'textless.json')
    await fs.writeFile(textless, JSON.stringify({ entries: { 0: { key: ['k'], content: '' }, 1: { key: ['j'], content: null } } }))
    const refused = await run('worldbook', 'import', textless)
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/\(2 entries without text.*\n {2}refused entries\.0: no content/)
    await expect(fs.lstat(t.root)).rejects.toThrow(/ENOENT/)
  })

  it('import writes one file per entry (0600), re-running changes nothing, and a person’s file is never overwritten', async () => {
    const first = await run('worldbook', 'import', FIXTURE)
    expect(first.code).toBe(0)
    expect(first.out).toContain('wrote 9 entries')
    expect(first.out).toMatch(/entries.0 → 翁法罗斯.md\n    replaces the starter entry of the same name/)
    expect((await fs.readdir(folder())).sort()).toHaveLength(9)
    expect((await fs.stat(join(folder(), '翁法罗斯.md'))).mode & 0o777).toBe(0o600)
    const again = await run('worldbook', 'import', FIXTURE)
    expect(again.out).toContain('wrote 0 entries')
    expect(again.out).toContain('9 already there, the same')
    await fs.writeFile(join(folder(), '全都要.md'), '---\nkeys: [全]\n---\n我改过的。\n')
    const third = await run('worldbook', 'import', FIXTURE, '--json')
    const value = JSON.parse(third.out)
    expect(value.entries.find((e: { name: string }) => e.name === '全都要').result).toBe('kept')
    expect(await fs.readFile(join(folder(), '全都要.md'), 'utf8')).toBe('---\nkeys: [全]\n---\n我改过的。\n')
  })

  it('list shows the entries in force (yours over the starter ones) and skipped files with the reason', async () => {
    await run('worldbook', 'import', FIXTURE)
    await fs.writeFile(join(folder(), '坏.md'), 'no front matter')
    const r = await run('worldbook', 'list')
    expect(r.code).toBe(0)
    expect(r.out).toContain('翁法罗斯 [person, over the starter one] priority 150: keys 翁法罗斯, Amphoreus (not-any 昔涟)')
    expect(r.out).toContain('昔涟的来历 [starter] priority 300: constant')
    expect(r.out).toContain('- 关掉的 [person] priority 10: switched off')
    expect(r.out).toContain(`skipped ${join(folder(), '坏.md')}: no front matter`)
  })

  it('cyrene doctor names the worldbook, a skipped file with its reason and a constant entry the rail has no room for', async () => {
    await fs.mkdir(folder(), { recursive: true })
    await fs.writeFile(join(folder(), '坏.md'), '---\nconstant: maybe\n---\nx\n')
    await fs.writeFile(join(folder(), '太长.md'), `---\nconstant: yes\npriority: 1\n---\n${'长'.repeat(400)}\n`)
    const r = await run('doctor', '--verbose', '--lang', 'en')
    expect(r.err).toBe('')
    expect(r.out).toMatch(/✓ worldbook: \d+ entries in force \(4 constant/)
    expect(r.out).toContain(`! worldbook: skipped ${join(folder(), '坏.md')}: constant must be yes or no, not "maybe"`)
    expect(r.out).toMatch(/! worldbook: constant entries left out of the 140 rail \(\d+\/560 chars used\): 太长 \(no-room, 405 chars\)/)
  })

  it('bad input: a missing file or one that is not World Info is refused with exit 2, nothing written', async () => {
    const missing = await run('worldbook', 'import', join(t.home, 'nope.json'))
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('cannot read')
    // no file at all: said so, with the usage (it named "{file}" and what node said about undefined)
    const none = await run('worldbook', 'import')
    expect(none.code).toBe(2)
    expect(none.err).toBe('cyrene worldbook: give the World Info file (or card, lorebook) to import. Usage: cyrene worldbook import [options] <file>\n')
    await fs.writeFile(join(t.home, 'x.json'), '{"name": "not a world"}')
    const wrong = await run('worldbook', 'import', join(t.home, 'x.json'))
    expect(wrong.code).toBe(2)
    expect(wrong.err).toContain('no "entries" object')
    await fs.writeFile(join(t.home, 'y.json'), '{broken')
    const broken = await run('worldbook', 'import', join(t.home, 'y.json'))
    expect(broken.code).toBe(2)
    expect(broken.err).toContain('is not valid JSON')
    await expect(fs.readdir(folder())).rejects.toThrow(/ENOENT/)
  })

  it('with --json every refusal is one JSON object on stdout, in English, exit 2, nothing written (decision 320)', async () => {
    await fs.writeFile(join(t.home, 'x.json'), '{"name": "not a world"}')
    await fs.writeFile(join(t.home, 'y.json'), '{broken')
    await fs.writeFile(join(t.home, 'e.json'), '{"entries": {"0": {"key": ["k"], "content": "  "}}}')
    for (const [args, why] of [
      [['worldbook', 'import', '--json'], 'give the World Info file'],
      [['worldbook', 'import', join(t.home, 'nope.json'), '--json'], 'cannot read'],
      [['worldbook', 'import', join(t.home, 'x.json'), '--json'], 'no "entries" object'],
      [['worldbook', 'import', join(t.home, 'y.json'), '--json'], 'is not valid JSON'],
      [['worldbook', 'import', join(t.home, 'e.json'), '--json'], 'entries.0'],
      [['worldbook', 'import', join(t.home, 'x.json'), '--bogus', '--json'], "Unknown option '--bogus'"],
      [['worldbook', 'list', '--json', '--root', 'relative'], 'absolute'],
    ] as const) {
      for (const lang of ['en', 'zh']) {
        const r = await run('--lang', lang, ...args)
        expect(r.code, args.join(' ')).toBe(2)
        const report = JSON.parse(r.out)
        expect(report, args.join(' ')).toMatchObject({ ok: false })
        expect(report.error, args.join(' ')).toContain(why)
      }
    }
    expect(JSON.parse((await run('worldbook', 'import', '--json')).out)).toMatchObject({ entries: [], refused: [] })
    await expect(fs.readdir(folder())).rejects.toThrow(/ENOENT/)
  })
  it('a JPEG or WebP renamed .png is refused as not a card, and a UTF-16 export (Notepad) reads as its text (decision 294)', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00])
    await fs.writeFile(join(t.home, 'card.png'), jpeg)
    const image = await run('worldbook', 'import', join(t.home, 'card.png'))
    expect(image.code).toBe(2)
    expect(image.err).toContain('is neither JSON nor a PNG card')
    await expect(fs.readdir(folder())).rejects.toThrow(/ENOENT/)
    const world = JSON.stringify({ entries: { 0: { uid: 0, key: ['港口'], comment: '港口', content: '雾里的港口 🌫' } } })
    await fs.writeFile(join(t.home, 'le.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(world, 'utf16le')]))
    const le = await run('worldbook', 'import', join(t.home, 'le.json'))
    expect(le.code).toBe(0)
    expect(await fs.readFile(join(folder(), '港口.md'), 'utf8')).toContain('雾里的港口 🌫')
    const be = Buffer.from(world.replace('港口', 'Harbour').replace('港口', 'Harbour'), 'utf16le').swap16()
    await fs.writeFile(join(t.home, 'be.json'), Buffer.concat([Buffer.from([0xfe, 0xff]), be]))
    expect((await run('worldbook', 'import', join(t.home, 'be.json'))).code).toBe(0)
    expect(await fs.readFile(join(folder(), 'Harbour.md'), 'utf8')).toContain('雾里的港口 🌫')
  })

  it('a link where the folder should be is refused, never followed', async () => {
    await fs.mkdir(t.root, { recursive: true })
    await fs.mkdir(join(t.home, 'elsewhere'))
    await fs.symlink(join(t.home, 'elsewhere'), folder())
    const r = await run('worldbook', 'import', FIXTURE, '--json')
    // Refused whole, with what to do (an outside fault audit found exit 0 and every entry refused one by one).
    expect(r.code).toBe(2)
    expect(r.err).toContain('is a symbolic link')
    expect(r.err).toContain('Put the folder itself there')
    expect(await fs.readdir(join(t.home, 'elsewhere'))).toEqual([])
  })

  it('every entry stopped by a link or a folder at its place: nothing written, exit 2 and what to do, never through the link', async () => {
    const world = join(t.home, 'two.json')
    await fs.writeFile(
      world,
      JSON.stringify({ entries: { 0: { key: ['a'], comment: 'Alpha', content: 'alpha' }, 1: { key: ['b'], comment: 'Beta', content: 'beta' } } }),
    )
    await fs.mkdir(join(folder(), 'Alpha.md'), { recursive: true })
    const outside = join(t.home, 'outside.md')
    await fs.writeFile(outside, 'not the worldbook’s\n')
    await fs.symlink(outside, join(folder(), 'Beta.md'))
    const r = await run('worldbook', 'import', world)
    expect(r.code, r.err).toBe(2)
    expect(r.out).toContain('世界书/Alpha.md is not a plain file; move it away and import again')
    expect(r.out).toContain('世界书/Beta.md is a symbolic link; the worldbook never writes through one')
    expect(r.err).toContain('nothing was written: 2 entries are refused by what stands at their place in 世界书/')
    expect(await fs.readFile(outside, 'utf8')).toBe('not the worldbook’s\n')
    // With the folder moved away, the same import writes Alpha (and still not through the link).
    await fs.rmdir(join(folder(), 'Alpha.md'))
    const again = await run('worldbook', 'import', world)
    expect(again.code, again.err).toBe(0)
    expect(again.out).toContain('wrote 1 entry')
    expect(await fs.readFile(outside, 'utf8')).toBe('not the worldbook’s\n')
  })
})

describe('cyrene worldbook import: a big world', () => {
  it('shows its progress on stderr, every 500 entries and at the end; --quiet keeps it silent', async () => {
    const file = join(t.home, 'big.json')
    const entries = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [i, { key: [`k${i}`], comment: `e${i}`, content: `第${i}条。` }]))
    await fs.writeFile(file, JSON.stringify({ entries }))
    const r = await run('worldbook', 'import', file, '--dry-run')
    expect(r.code).toBe(0)
    expect(r.err.split('\n').filter((l) => l.startsWith('worldbook import: entries'))).toEqual([
      'worldbook import: entries: 500/1200',
      'worldbook import: entries: 1000/1200',
      'worldbook import: entries: 1200/1200',
    ])
    expect((await run('worldbook', 'import', file, '--dry-run', '--quiet')).err).toBe('')
  })
})

describe('cyrene worldbook import: constant entries and the rail', () => {
  it('says at once which constant entries the 140 rail leaves out, not only in the doctor', async () => {
    const long = (n: number) => ({ key: [], constant: true, comment: `常驻${n}`, content: `${'港口的灯塔彻夜亮着，'.repeat(25)}${n}` })
    const file = join(t.home, 'constants.json')
    await fs.writeFile(file, JSON.stringify({ entries: { 0: long(1), 1: long(2), 2: long(3) } }))
    const r = await run('worldbook', 'import', file)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/! the 140 rail holds 560 characters for all constant entries together: \d+ are left out \(.*常驻\d/)
    // A world without constant entries says nothing of the rail.
    await fs.writeFile(file, JSON.stringify({ entries: { 0: { key: ['k'], content: 'x' } } }))
    expect((await run('worldbook', 'import', file)).out).not.toContain('140 rail')
  })
})

describe('cyrene worldbook import of SillyTavern’s shapes (issue 21)', () => {
  const fixture = (name: string) => fileURLToPath(new URL(`../tests/fixtures/worldbook/${name}`, import.meta.url))

  it('an Eldoria-shaped book: says what it kept, split and dropped, in the output and --json', async () => {
    const r = await run('worldbook', 'import', fixture('harbour-eldoria-shaped.json'))
    expect(r.code).toBe(0)
    expect(r.out).toContain('wrote 7 entries')
    expect(r.out).toContain('2 source entries split to fit; 1 written switched off')
    expect(r.out).toMatch(
      /entries.0 → harbour \(1 of 3\)\.md\n    kept: key, keysecondary, selective, constant, order, disable, comment, content; matching: keys as substrings/,
    )
    expect(r.out).toContain('not carried: probability 40 — not honoured')
    expect(r.out).toContain('entries.2 → Marin.md (switched off)')
    expect(await fs.readFile(join(folder(), 'beast (1 of 2).md'), 'utf8')).toContain('match_whole_words: no')
    // Again: nothing is written this time, so nothing is said to be written switched off.
    const again = await run('worldbook', 'import', fixture('harbour-eldoria-shaped.json'))
    expect(again.out).toContain('wrote 0 entries')
    expect(again.out).not.toContain('switched off;')
    expect(again.out).not.toMatch(/\d+ written switched off/)
    const j = JSON.parse((await run('worldbook', 'import', fixture('harbour-eldoria-shaped.json'), '--json', '--dry-run')).out)
    const salt = j.entries.find((e: { origin: string }) => e.origin === 'entries.3')
    expect(salt.notCarried.map((d: { field: string }) => d.field)).toEqual(['position', 'depth', 'probability', 'scanDepth', 'group', 'sticky'])
    expect(j.entries.filter((e: { part?: unknown }) => e.part !== undefined)).toHaveLength(5)
  })

  it('a card’s character_book imports from a PNG card as from its JSON', async () => {
    const json = await fs.readFile(fixture('card-with-book.json'))
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('tEXt', Buffer.concat([Buffer.from('chara\0', 'latin1'), Buffer.from(json.toString('base64'), 'latin1')])),
      pngChunk('IEND', Buffer.alloc(0)),
    ])
    const file = join(t.home, 'marin.png')
    await fs.writeFile(file, png)
    const fromPng = await run('worldbook', 'import', file, '--dry-run', '--json')
    expect(fromPng.code).toBe(0)
    const fromJson = await run('worldbook', 'import', fixture('card-with-book.json'), '--dry-run', '--json')
    expect(JSON.parse(fromPng.out).entries).toEqual(JSON.parse(fromJson.out).entries)
    expect(JSON.parse(fromPng.out).book.notCarried.map((d: { field: string }) => d.field)).toEqual(['scan_depth', 'token_budget', 'recursive_scanning', 'name'])
    const text = await run('worldbook', 'import', file)
    expect(text.out).toContain('wrote 3 entries')
    expect(text.out).toContain('book: not carried: token_budget 512')
  })

  it('a CharX card’s character_book imports as its card.json would; one without card.json is refused, nothing written (decision 313)', async () => {
    const json = await fs.readFile(fixture('card-with-book.json'))
    const file = join(t.home, 'marin.charx')
    await fs.writeFile(
      file,
      zip([
        { name: 'card.json', data: json },
        { name: 'assets/icon/images/main.png', data: Buffer.alloc(64, 1), store: true },
      ]),
    )
    const fromCharx = await run('worldbook', 'import', file, '--dry-run', '--json')
    expect(fromCharx.code).toBe(0)
    const fromJson = await run('worldbook', 'import', fixture('card-with-book.json'), '--dry-run', '--json')
    expect(JSON.parse(fromCharx.out).entries).toEqual(JSON.parse(fromJson.out).entries)
    const empty = join(t.home, 'empty.charx')
    await fs.writeFile(empty, zip([{ name: 'assets/icon/images/main.png', data: Buffer.alloc(64, 1) }]))
    const refused = await run('worldbook', 'import', empty)
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('cannot read the CharX card: the zip holds no card.json')
    expect(refused.err).toContain('nothing was written')
    await expect(fs.lstat(t.root)).rejects.toThrow(/ENOENT/)
  })

  it('a NovelAI lorebook PNG (its naidata chunk, no card) imports as its JSON does, written to the person’s folder (decision 312)', async () => {
    const json = await fs.readFile(fixture('novelai-lorebook.json'))
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('tEXt', Buffer.concat([Buffer.from('naidata\0', 'latin1'), Buffer.from(json.toString('base64'), 'latin1')])),
      pngChunk('IEND', Buffer.alloc(0)),
    ])
    const file = join(t.home, 'fog-harbour.png')
    await fs.writeFile(file, png)
    const fromPng = await run('worldbook', 'import', file, '--dry-run', '--json')
    expect(fromPng.code).toBe(0)
    const fromJson = await run('worldbook', 'import', fixture('novelai-lorebook.json'), '--dry-run', '--json')
    expect(JSON.parse(fromPng.out).entries).toEqual(JSON.parse(fromJson.out).entries)
    const written = await run('worldbook', 'import', file)
    expect(written.code).toBe(0)
    expect(written.out).toContain('wrote 2 entries')
    const harbour = await fs.readFile(join(folder(), '雾港 Fog Harbour.md'), 'utf8')
    expect(harbour).toContain('雾港是群岛最北的港口')
    expect(harbour).toContain('priority: 400')
  })
})

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

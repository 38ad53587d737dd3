import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { zip } from '../whale/testing/zip.ts'
import { b64, expectRefusal, iend, ihdr, json, png, put, read, removeScratch, scratch, tree, whale } from './testing/whale-cli.ts'

afterEach(removeScratch)

describe('cyrene whale presets', () => {
  const live = {
    enabled: true,
    thinkingLanguage: 'en',
    persona: { userName: 'L', character: 'old', extra: 1 },
    memory: { enabled: true, entries: [{ text: 'private' }] },
    other: { keep: true },
  }
  function setup(): string {
    const dir = scratch()
    put(dir, 'home/whale-persona/config.json', live)
    put(dir, 'home/whale-persona/presets/p1.json', {
      spec: 'whale-persona-preset/1',
      id: 'p1',
      label: 'One',
      persona: { character: 'new', enabled: false, contracts: 'not an array' },
      memory: { entries: [{ text: 'planted' }] },
    })
    return dir
  }

  it('imports a CharX card from its card.json, and refuses a zip bomb or a zip without a card, writing nothing (decision 313)', async () => {
    const dir = setup()
    const card = {
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: { name: '林老板 Madam Lin', description: '晨雾茶馆的老板。She never tells her first name.' },
    }
    put(
      dir,
      'lin.charx',
      zip([
        { name: 'card.json', data: JSON.stringify(card) },
        { name: 'assets/icon/images/main.png', data: Buffer.alloc(32, 9), store: true },
      ]),
    )
    const out = json((await whale(['presets', 'import', 'lin.charx', '--json', '--dry-run'], dir)).stdout)
    expect(out).toMatchObject({ ok: true, detected: 'tavern-v2' })
    expect(out.mapped).toEqual(['description'])
    put(dir, 'bomb.charx', zip([{ name: 'card.json', data: Buffer.alloc(9 * 1024 * 1024, 0x20), declaredSize: 10 }]))
    put(dir, 'nocard.charx', zip([{ name: 'readme.txt', data: 'hi' }]))
    const before = tree(dir)
    await expectRefusal(dir, ['presets', 'import', 'bomb.charx'], /card\.json would inflate past 8388608 bytes.*export the character again/)
    await expectRefusal(dir, ['presets', 'import', 'nocard.charx'], /no card\.json/)
    expect(tree(dir)).toEqual(before)
  })
  it('imports a Backyard AI archive (.byaf) as SillyTavern does, and refuses a damaged one, writing nothing (decision 330)', async () => {
    const dir = setup()
    const byaf = (character: object | string) =>
      zip([
        { name: 'manifest.json', data: JSON.stringify({ schemaVersion: 1, characters: ['characters/lin/character.json'], scenarios: ['scenarios/a.json'] }) },
        { name: 'characters/lin/character.json', data: typeof character === 'string' ? character : JSON.stringify(character) },
        { name: 'scenarios/a.json', data: JSON.stringify({ narrative: 'A rainy evening.', firstMessages: [{ text: 'Tea, {user}?' }] }) },
      ])
    put(dir, 'lin.byaf', byaf({ name: 'Madam Lin', persona: '{character} runs the morning-fog tea house.' }))
    const out = await whale(['presets', 'import', 'lin.byaf', '--json'], dir)
    expect(out.code).toBe(0)
    const report = json(out.stdout)
    expect(report).toMatchObject({ ok: true, detected: 'tavern-v2', savedId: 'madam-lin', mapped: ['description', 'scenario'] })
    expect(report.notes[0]).toContain('Read as SillyTavern imports a Backyard AI archive')
    expect(json(read(dir, 'home/whale-persona/presets/madam-lin.json')).persona.character).toBe(
      '{{char}} runs the morning-fog tea house.\n\n【场景】\nA rainy evening.',
    )
    put(dir, 'broken.byaf', byaf('{"name": '))
    put(dir, 'words.byaf', 'a Backyard AI archive in name only')
    const before = tree(dir)
    await expectRefusal(
      dir,
      ['presets', 'import', 'broken.byaf'],
      'cannot read the Backyard AI archive: the character file characters/lin/character.json its manifest names is not a JSON object',
    )
    await expectRefusal(dir, ['presets', 'import', 'words.byaf'], /not a zip.*not a Backyard AI archive/)
    const zh = await whale(['--lang', 'zh', 'presets', 'import', 'words.byaf'], dir)
    expect(zh.code).toBe(2)
    expect(zh.stderr).toContain('读不了这个 Backyard AI 存档')
    const asJson = await whale(['--lang', 'zh', 'presets', 'import', 'words.byaf', '--json'], dir)
    expect(json(asJson.stdout)).toMatchObject({ ok: false, detected: 'unknown', savedId: null })
    expect(json(asJson.stdout).error).toContain('cannot read the Backyard AI archive')
    expect(tree(dir)).toEqual(before)
  })
  it('dir, list and show', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/presets/broken.json', '{')
    expect((await whale(['presets', 'dir'], dir)).stdout).toBe('home/whale-persona/presets\n')
    expect(json((await whale(['presets', 'list', '--json'], dir)).stdout)).toEqual([
      { id: 'broken', label: '', description: '', valid: false },
      { id: 'p1', label: 'One', description: '', valid: true },
    ])
    const shown = json((await whale(['presets', 'show', 'p1', '--json'], dir)).stdout)
    expect(shown.persona).toEqual({ character: 'new', contracts: 'not an array' })
    expect((await whale(['presets', 'show', 'p1'], dir)).stdout).toContain(
      '# ignored when applied: persona.contracts (wrong type, not applied), persona.enabled, memory',
    )
  })
  it('refuses broken, huge and non-preset preset files with a message, writing nothing', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/presets/broken.json', '{')
    put(dir, 'home/whale-persona/presets/huge.json', '{"persona":{"character":"' + 'x'.repeat(5 * 1024 * 1024) + '"}}')
    put(dir, 'home/whale-persona/presets/card.json', { spec: 'chara_card_v2', data: { name: 'n', description: 'd' } })
    const before = tree(dir)
    expect((await whale(['presets', 'show', 'broken'], dir)).stderr).toContain('not valid JSON')
    expect((await whale(['presets', 'apply', 'huge'], dir)).stderr).toContain('cannot read')
    expect((await whale(['presets', 'apply', 'card'], dir)).stderr).toContain('is not a whale-persona preset')
    expect((await whale(['presets', 'apply', 'nope'], dir)).stderr).toContain('no preset "nope"')
    expect(tree(dir)).toEqual(before)
    // with --json every refusal is JSON on stdout, exit 2, as for a refused config (a script reads ok:false, decision 307)
    for (const [id, why] of [
      ['card', 'is not a whale-persona preset'],
      ['nope', 'no preset "nope"'],
      ['broken', 'not valid JSON'],
      ['bad..id', 'not a valid preset id'],
    ] as const) {
      const out = await whale(['presets', 'apply', id, '--json'], dir)
      expect(out.code).toBe(2)
      expect(json(out.stdout)).toMatchObject({ ok: false, id, changed: false, autosaveWritten: false, configFile: 'home/whale-persona/config.json' })
      expect(json(out.stdout).error).toContain(why)
    }
    expect(tree(dir)).toEqual(before)
  })
  it('apply replaces whitelisted keys only, keeps everything else, autosaves the previous persona', async () => {
    const dir = setup()
    const out = json((await whale(['presets', 'apply', 'p1', '--json'], dir)).stdout)
    expect(out).toMatchObject({ ok: true, changed: true, autosaveWritten: true })
    const after = json(read(dir, 'home/whale-persona/config.json'))
    expect(after).toEqual({ ...live, persona: { ...live.persona, character: 'new' } })
    expect(json(read(dir, 'home/whale-persona/presets/autosave.json')).persona).toEqual({ userName: 'L', character: 'old' })
    // applying again changes nothing and keeps the autosave of the real previous persona
    expect(json((await whale(['presets', 'apply', 'p1', '--json'], dir)).stdout)).toMatchObject({ ok: true, changed: false, autosaveWritten: false })
    expect(json(read(dir, 'home/whale-persona/presets/autosave.json')).persona.character).toBe('old')
    await whale(['presets', 'apply', 'autosave'], dir)
    expect(json(read(dir, 'home/whale-persona/config.json')).persona.character).toBe('old')
  })
  it('apply refuses a config that is not JSON or not an object, byte for byte untouched', async () => {
    for (const bad of ['{ broken', '[1,2]', '{"persona": "x"}']) {
      const dir = setup()
      put(dir, 'home/whale-persona/config.json', bad)
      await expectRefusal(dir, ['presets', 'apply', 'p1'], /fix it first/)
    }
  })
  it.each(['../p1', 'a/b', '', 'x'.repeat(65), 'p1.json', '..'])('refuses the preset id %j', async (id) => {
    const dir = setup()
    const before = tree(dir)
    for (const action of ['show', 'apply', 'delete']) {
      const out = await whale(['presets', action, id], dir)
      expect(out.code).toBe(2)
    }
    expect((await whale(['presets', 'save', id], dir)).code).toBe(2)
    expect(tree(dir)).toEqual(before)
  })
  it('save snapshots the live persona, refuses autosave and existing ids without --force; delete removes', async () => {
    const dir = setup()
    expect((await whale(['presets', 'save', 'mine', 'My', 'label'], dir)).code).toBe(0)
    expect(json(read(dir, 'home/whale-persona/presets/mine.json'))).toEqual({
      spec: 'whale-persona-preset/1',
      id: 'mine',
      label: 'My label',
      thinkingLanguage: 'en',
      persona: { userName: 'L', character: 'old' },
    })
    expect((await whale(['presets', 'save', 'mine'], dir)).stderr).toContain('--force')
    expect((await whale(['presets', 'save', 'mine', '--force'], dir)).code).toBe(0)
    expect((await whale(['presets', 'save', 'autosave'], dir)).stderr).toContain('reserved')
    expect((await whale(['presets', 'delete', 'mine'], dir)).code).toBe(0)
    expect(existsSync(path.join(dir, 'home/whale-persona/presets/mine.json'))).toBe(false)
    expect((await whale(['presets', 'delete', 'mine'], dir)).code).toBe(2)
  })
  it('export → import (whale preset and tavern card) is a lossless round trip, unknown extensions kept', async () => {
    const dir = setup()
    const full = {
      spec: 'whale-persona-preset/1',
      id: 'full',
      label: 'Full Name',
      description: 'd',
      author: 'me',
      tags: ['a'],
      thinkingLanguage: 'ja',
      persona: {
        userName: 'U',
        selfNameFlash: 'F',
        selfNamePro: 'P',
        selfNameByModel: { glm: 'G' },
        stance: 'S',
        character: 'C\n\nmore',
        suffix: 'X {{cwd}}',
        contracts: [
          { id: 'k1', text: 'one', on: true },
          { id: 'k2', text: 'off', on: false },
          { id: 'k3', text: 'multi\nline', on: true },
        ],
        tone: { enabled: true, text: 't', byModel: {}, note: 'kept' },
        appearance: { enabled: false, text: '', byModel: {} },
      },
      extensions: { depth_prompt: { prompt: 'x', depth: 4 } },
    }
    put(dir, 'home/whale-persona/presets/full.json', full)
    expect((await whale(['presets', 'export', 'full', 'card.json', '--tavern'], dir)).code).toBe(0)
    const card = json(read(dir, 'card.json'))
    expect(card.spec).toBe('chara_card_v2')
    expect(card.data.extensions.depth_prompt).toEqual({ prompt: 'x', depth: 4 })
    expect(card.data.system_prompt).toBe('- one\n- multi\nline')
    expect((await whale(['presets', 'export', 'full', 'card.json', '--tavern'], dir)).stderr).toContain('--force')
    const back = json((await whale(['presets', 'import', 'card.json', '--json', '--id', 'back'], dir)).stdout)
    expect(back).toMatchObject({ ok: true, detected: 'tavern-v2', savedId: 'back' })
    const saved = json(read(dir, 'home/whale-persona/presets/back.json'))
    expect(saved.persona).toEqual(full.persona)
    expect(saved).toMatchObject({ id: 'back', label: 'Full Name', author: 'me', tags: ['a'], thinkingLanguage: 'ja', extensions: full.extensions })
    // the visible fields carry character and suffix; only the contracts needed the stored copy
    expect(Object.keys(card.data.extensions.whale_persona).sort()).toEqual([
      'appearance',
      'contracts',
      'selfNameByModel',
      'selfNameFlash',
      'selfNamePro',
      'spec',
      'stance',
      'thinkingLanguage',
      'tone',
      'userName',
    ])
    expect((await whale(['presets', 'export', 'full', 'plain.json'], dir)).code).toBe(0)
    expect(json(read(dir, 'plain.json'))).toEqual(full)
  })
  it('a card edited in another tool keeps the visible edit over the stored copy', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/presets/full.json', {
      spec: 'whale-persona-preset/1',
      id: 'full',
      label: 'full',
      persona: { character: 'C', contracts: [{ id: 'k', text: 'one', on: true }] },
    })
    await whale(['presets', 'export', 'full', 'card.json', '--tavern'], dir)
    const card = json(read(dir, 'card.json'))
    card.data.description = 'edited'
    card.data.system_prompt = '- one\n- two'
    put(dir, 'card.json', card)
    const out = json((await whale(['presets', 'import', 'card.json', '--json', '--dry-run'], dir)).stdout)
    expect(out.preset.persona).toEqual({
      character: 'edited',
      contracts: [
        { id: 'c1', text: 'one', on: true },
        { id: 'c2', text: 'two', on: true },
      ],
    })
    expect(out.notes.join(' ')).toContain("card's contracts differs")
    expect(out.savedFile).toBeNull()
  })
  it('a path the system cannot write is a clear refusal, not a crash', async () => {
    const dir = setup()
    put(dir, 'blocker', 'a file where a folder is needed')
    const out = await whale(['presets', 'export', 'p1', 'blocker/card.json'], dir)
    // A file where a folder is made is a path conflict, exit 3 as for every command (CONTRACT#exit-codes), with the mv that fixes it.
    expect(out.code).toBe(3)
    expect(out.stderr).toMatch(/path conflict: \S*blocker is a file where the store needs a folder/)
    expect(out.stderr).toContain('.aside')
  })
  it('a card whose id another preset holds is saved under the next free id, as the reference imports; autosave is never taken (decision 307)', async () => {
    const dir = setup()
    const p1 = read(dir, 'home/whale-persona/presets/p1.json')
    put(dir, 'c.json', { spec: 'chara_card_v2', data: { name: 'P1', description: 'x' } })
    const out = json((await whale(['presets', 'import', 'c.json', '--json'], dir)).stdout)
    expect(out).toMatchObject({ ok: true, detected: 'tavern-v2', savedId: 'p1-2', savedFile: 'home/whale-persona/presets/p1-2.json', unchanged: false })
    expect(out.preset.id).toBe('p1-2')
    expect(json(read(dir, 'home/whale-persona/presets/p1-2.json'))).toMatchObject({ id: 'p1-2', label: 'P1', persona: { character: 'x' } })
    expect(read(dir, 'home/whale-persona/presets/p1.json')).toBe(p1)
    // the same card again: p1-2 holds it already, so nothing new is written
    const again = json((await whale(['presets', 'import', 'c.json', '--json'], dir)).stdout)
    expect(again).toMatchObject({ ok: true, savedId: 'p1-2', unchanged: true })
    expect(existsSync(path.join(dir, 'home/whale-persona/presets/p1-3.json'))).toBe(false)
    // another card of that name takes p1-3, and the person is told why; a dry run names that id first and writes nothing
    put(dir, 'd.json', { spec: 'chara_card_v2', data: { name: 'P1', description: 'y' } })
    const dry = json((await whale(['presets', 'import', 'd.json', '--json', '--dry-run'], dir)).stdout)
    expect(dry).toMatchObject({ ok: true, savedId: null, savedFile: null })
    expect(dry.preset.id).toBe('p1-3')
    expect((await whale(['presets', 'import', 'd.json', '--dry-run'], dir)).stdout).toContain('p1-3')
    expect(existsSync(path.join(dir, 'home/whale-persona/presets/p1-3.json'))).toBe(false)
    const third = await whale(['presets', 'import', 'd.json'], dir)
    expect(third.stdout).toContain('as "p1-3"')
    expect(third.stdout).toContain('"p1" is another preset, so this card was saved beside it as "p1-3"')
    // an id the person gives is kept or refused, never moved
    const given = await whale(['presets', 'import', 'd.json', '--id', 'p1'], dir)
    expect(given.code).toBe(2)
    expect(given.stderr).toContain('already exists')
    expect(read(dir, 'home/whale-persona/presets/p1.json')).toBe(p1)
    // a card named autosave never takes the autosave an apply keeps
    put(dir, 'a.json', { id: 'autosave', persona: { character: 'x' } })
    expect(json((await whale(['presets', 'import', 'a.json', '--json', '--dry-run'], dir)).stdout).preset.id).toBe('autosave-2')
    expect(json((await whale(['presets', 'import', 'a.json', '--json'], dir)).stdout)).toMatchObject({ ok: true, savedId: 'autosave-2' })
    expect(existsSync(path.join(dir, 'home/whale-persona/presets/autosave.json'))).toBe(false)
    put(dir, 'b.json', { spec: 'chara_card_v2', data: { name: 'B', description: 'x' } })
    const named = await whale(['presets', 'import', 'b.json', '--id', 'autosave'], dir)
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('reserved')
    expect(existsSync(path.join(dir, 'home/whale-persona/presets/autosave.json'))).toBe(false)
  })
  it('card round trip: export --tavern then import into the same home succeeds and leaves the preset as it was; a changed card is saved beside it (issue 14 item "card round trip", decision 307)', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/presets/one.json', {
      spec: 'whale-persona-preset/1',
      id: 'one',
      label: 'One',
      description: 'mine',
      persona: { userName: 'U', character: 'C', contracts: [{ id: 'k', text: 'keep', on: false }] },
    })
    const before = read(dir, 'home/whale-persona/presets/one.json')
    expect((await whale(['presets', 'export', 'one', 'one-card.json', '--tavern'], dir)).code).toBe(0)
    const back = await whale(['presets', 'import', 'one-card.json', '--json'], dir)
    expect(back.code).toBe(0)
    expect(json(back.stdout)).toMatchObject({
      ok: true,
      detected: 'tavern-v2',
      savedId: 'one',
      savedFile: 'home/whale-persona/presets/one.json',
      unchanged: true,
    })
    expect(read(dir, 'home/whale-persona/presets/one.json')).toBe(before)
    expect((await whale(['presets', 'import', 'one-card.json'], dir)).stdout).toContain('left as it was')
    const card = json(read(dir, 'one-card.json'))
    card.data.description = 'changed elsewhere'
    put(dir, 'one-card.json', card)
    // changed elsewhere: kept beside the preset, never over it (decision 307)
    const beside = await whale(['presets', 'import', 'one-card.json', '--json'], dir)
    expect(beside.code).toBe(0)
    expect(json(beside.stdout)).toMatchObject({ savedId: 'one-2', unchanged: false })
    expect(read(dir, 'home/whale-persona/presets/one.json')).toBe(before)
    expect((await whale(['presets', 'import', 'one-card.json', '--force'], dir)).code).toBe(0)
    expect(json(read(dir, 'home/whale-persona/presets/one.json')).persona.character).toBe('changed elsewhere')
  })
  it.each([
    ['invalid JSON', '{"spec":', 'not valid JSON'],
    ['binary', Buffer.from([1, 0, 2, 3]), 'binary'],
    ['an unknown object', '{"hello":"world"}', 'not a card'],
    ['a JSON array', '[1]', 'not a card'],
  ])('import refuses %s and saves nothing', async (_, content, message) => {
    const dir = setup()
    put(dir, 'card.json', content)
    await expectRefusal(dir, ['presets', 'import', 'card.json'], message)
  })
  it('import takes a JSON card up to 8 MiB, as the same card.json in a CharX, and refuses a larger file', async () => {
    const dir = setup()
    // a big lorebook inside: 5 MiB, refused while JSON cards were capped at 4 MiB
    const book = { entries: Array.from({ length: 500 }, (_, i) => ({ keys: [`k${i}`], content: 'x'.repeat(10 * 1024), enabled: true })) }
    put(dir, 'big.json', { spec: 'chara_card_v2', data: { name: 'Big', description: 'A keeper.', character_book: book } })
    const big = await whale(['presets', 'import', 'big.json', '--json', '--dry-run'], dir)
    expect(big.code, big.stderr).toBe(0)
    expect(json(big.stdout)).toMatchObject({ ok: true, mapped: ['description'] })
    put(dir, 'card.json', '{"name":"' + 'x'.repeat(9 * 1024 * 1024) + '"}')
    const out = await whale(['presets', 'import', 'card.json'], dir)
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('larger than 8,388,608 bytes')
  })
  it('hostile card fields: prototype keys, odd tags, traversal names and giant prompts stay data', async () => {
    const dir = setup()
    const hostile =
      '{"spec":"chara_card_v3","data":{"name":"../../etc/passwd","description":"d","__proto__":{"polluted":1},"tags":[{"x":1},"ok",7],' +
      '"system_prompt":"' +
      '啊'.repeat(2000) +
      '","extensions":{"whale_persona":{"enabled":false,"memory":{"entries":[1]},"id":"../x","userName":{"a":1}}}}}'
    put(dir, 'card.json', hostile)
    const out = json((await whale(['presets', 'import', 'card.json', '--json'], dir)).stdout)
    expect(out.savedId).toBe('etc-passwd')
    expect(out.preset.tags).toEqual(['ok', '7'])
    expect(out.preset.persona).toEqual({ character: 'd' })
    expect(out.unmapped).toEqual(['data.__proto__', 'data.system_prompt'])
    expect(({} as any).polluted).toBeUndefined()
    expect(readdirSync(path.join(dir, 'home/whale-persona/presets')).sort()).toEqual(['etc-passwd.json', 'p1.json'])
  })
  it('control characters a card carries in its field names are shown escaped in the report, not sent to the terminal', async () => {
    const dir = setup()
    put(dir, 'card.json', JSON.stringify({ spec: 'chara_card_v2', data: { name: 'c', description: 'd', '\u001b[2J\u001b[31mCLEARED': 'x' } }))
    const r = await whale(['presets', 'import', 'card.json'], dir)
    expect(r.stdout).not.toContain('\u001b')
    expect(r.stdout).toContain('data.\\u001b[2J\\u001b[31mCLEARED')
  })
  it('a system_prompt with no usable line is reported, not claimed as mapped', async () => {
    const dir = setup()
    put(dir, 'card.json', { name: 'N', description: 'd', system_prompt: 'x\n-\n' + 'y'.repeat(400) })
    const out = json((await whale(['presets', 'import', 'card.json', '--json', '--dry-run'], dir)).stdout)
    expect(out.detected).toBe('tavern-v1')
    expect(out.mapped).toEqual(['description'])
    // named as the spec's table names a card's fields, a v1 card's too (decision 299)
    expect(out.unmapped).toEqual(['data.system_prompt'])
  })
})

describe('cards as people share them (issue 21)', () => {
  const setup = (): string => {
    const dir = scratch()
    put(dir, 'home/whale-persona/config.json', { persona: { character: 'live' } })
    mkdirSync(path.join(dir, 'home/whale-persona/presets'), { recursive: true })
    return dir
  }
  const v2 = (data: Record<string, unknown>) => ({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Marin', ...data } })

  it('round trip keeps creator and character_version as given, and the saved preset has source', async () => {
    const dir = setup()
    put(dir, 'card.json', v2({ description: 'd', creator: '', character_version: '3.7b' }))
    expect((await whale(['presets', 'import', 'card.json'], dir)).code).toBe(0)
    const saved = json(readFileSync(path.join(dir, 'home/whale-persona/presets/marin.json'), 'utf8'))
    expect(saved.source).toEqual({ kind: 'tavern-v2', name: 'Marin', creator: '', characterVersion: '3.7b' })
    const card = json((await whale(['presets', 'export', 'marin', '--tavern'], dir)).stdout)
    expect(card.data.creator).toBe('')
    expect(card.data.character_version).toBe('3.7b')
  })

  it('a card with nothing to take is refused (exit 2) with what it holds; nothing is saved', async () => {
    const dir = setup()
    put(dir, 'card.json', { spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'Empty', first_mes: 'hi', tags: [], description: '' } })
    const out = await whale(['presets', 'import', 'card.json'], dir)
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('nothing this engine takes')
    expect(out.stderr).toContain('data.name, data.first_mes')
    expect(readdirSync(path.join(dir, 'home/whale-persona/presets'))).not.toContain('empty.json')
  })

  it('apply of a preset that sets nothing never claims a config.json that does not exist', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/presets/bare.json', { spec: 'whale-persona-preset/1', id: 'bare', label: 'bare', persona: {} })
    rmSync(path.join(dir, 'home/whale-persona/config.json'), { force: true })
    const out = await whale(['presets', 'apply', 'bare'], dir)
    expect(out.stdout).not.toContain('already what')
    expect(out.stdout).toContain('there is no')
    expect(existsSync(path.join(dir, 'home/whale-persona/config.json'))).toBe(false)
  })

  it('CRLF is normalised; {{original}} is dropped with a note, never a contract; a wrong-type field is named once', async () => {
    const dir = setup()
    put(dir, 'card.json', v2({ description: '她\r\n在港口。', system_prompt: '{{original}}\r\n- 说实话\r\n- 不撒谎' }))
    const out = json((await whale(['presets', 'import', 'card.json', '--json', '--dry-run'], dir)).stdout)
    expect(out.preset.persona.character).toBe('她\n在港口。')
    expect(out.preset.persona.contracts.map((c: { text: string }) => c.text)).toEqual(['说实话', '不撒谎'])
    expect(out.notes.join(' ')).toContain('{{original}}')
    put(dir, 'wrong.json', { spec: 'whale-persona-preset/1', id: 'w', label: 'w', persona: { character: 'c', tone: 'loud' } })
    const wrong = json((await whale(['presets', 'import', 'wrong.json', '--json', '--dry-run'], dir)).stdout)
    expect(wrong.mapped).toEqual(['persona.character'])
    expect(wrong.unmapped).toEqual(['persona.tone (wrong type, not applied)'])
  })

  it('an old-format preset exports whole to a card and imports back with its persona', async () => {
    const dir = setup()
    const old = { id: 'old', label: 'Old', character: '旧人。', contracts: [{ id: 'c1', text: '说实话', on: true }], stance: '温和', suffix: '记得问好' }
    put(dir, 'home/whale-persona/presets/old.json', old)
    const card = (await whale(['presets', 'export', 'old', '--tavern'], dir)).stdout
    put(dir, 'card.json', card)
    const back = json((await whale(['presets', 'import', 'card.json', '--json', '--id', 'back'], dir)).stdout)
    expect(back.preset.persona).toEqual({ character: '旧人。', contracts: old.contracts, stance: '温和', suffix: '记得问好' })
  })
})

// ---------------------------------------------------------------- PNG cards

describe('PNG character cards (read-only)', () => {
  const card = { spec: 'chara_card_v2', data: { name: 'Png Pal', description: '画里的人', personality: 'calm' } }
  const cases: [string, Buffer][] = [
    ['tEXt chara', png([ihdr(), ['IDAT', Buffer.from('not really image data')], ['tEXt', Buffer.from('chara\0' + b64(card), 'latin1')], iend()])],
    ['zTXt chara', png([ihdr(), ['zTXt', Buffer.concat([Buffer.from('chara\0\0', 'latin1'), deflateSync(b64(card))])], iend()])],
    [
      'iTXt ccv3 (compressed) wins over chara',
      png([
        ihdr(),
        ['tEXt', Buffer.from('chara\0' + b64({ ...card, data: { ...card.data, name: 'Old' } }), 'latin1')],
        ['iTXt', Buffer.concat([Buffer.from('ccv3\0\x01\x00\0\0', 'latin1'), deflateSync(b64({ ...card, spec: 'chara_card_v3' }))])],
        iend(),
      ]),
    ],
  ]
  it.each(cases)('imports %s', async (_, bytes) => {
    const dir = scratch()
    put(dir, 'card.png', bytes)
    const out = json((await whale(['presets', 'import', 'card.png', '--json'], dir)).stdout)
    expect(out).toMatchObject({ ok: true, detected: 'tavern-v2', savedId: 'png-pal' })
    expect(out.preset.persona).toEqual({ character: '画里的人', stance: 'calm' })
  })
  it.each([
    ['a bad CRC', png([ihdr(), ['tEXt', Buffer.from('chara\0' + b64(card), 'latin1')], iend()], { badCrc: true }), 'CRC'],
    ['no card chunk', png([ihdr(), ['tEXt', Buffer.from('Comment\0hello', 'latin1')], iend()]), 'no "chara"'],
    ['a truncated file', png([ihdr(), ['tEXt', Buffer.from('chara\0' + b64(card), 'latin1')], iend()]).subarray(0, 40), 'truncated'],
    [
      'a chunk length past the end',
      Buffer.concat([png([ihdr()]).subarray(0, 8), Buffer.from('7fffff00', 'hex'), Buffer.from('tEXt'), Buffer.alloc(16)]),
      'past the end',
    ],
    ['no IEND', png([ihdr(), ['tEXt', Buffer.from('chara\0' + b64(card), 'latin1')]]), 'no IEND'],
    [
      'a zip bomb',
      png([ihdr(), ['zTXt', Buffer.concat([Buffer.from('chara\0\0', 'latin1'), deflateSync(Buffer.alloc(9 * 1024 * 1024, 65))])], iend()]),
      'inflate',
    ],
    ['not base64', png([ihdr(), ['tEXt', Buffer.from('chara\0%%%%', 'latin1')], iend()]), 'base64'],
  ])('refuses %s and saves nothing', async (_, bytes, message) => {
    const dir = scratch()
    put(dir, 'card.png', bytes)
    await expectRefusal(dir, ['presets', 'import', 'card.png'], message)
  })
})

// ---------------------------------------------------------------- conformance command

describe('cyrene whale presets export and the memory store', () => {
  it('never writes into the store, its snapshots or its index, with or without --force', async () => {
    const dir = scratch()
    const day = put(dir, 'home/cyrene-philia093-0/岁月涟漪/日档/2024/05/2024-05-01.md', 'a memory\n')
    for (const target of ['home/cyrene-philia093-0/岁月涟漪/日档/2024/05/2024-05-01.md', 'home/cyrene-philia093-0-snapshots/x.json']) {
      const r = await whale(['presets', 'export', 'cyrene:chat', target, '--force'], dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('never writes there')
    }
    expect(readFileSync(day, 'utf8')).toBe('a memory\n')
  })
})

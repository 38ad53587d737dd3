import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from './main.ts'
import type { CliIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await fs.chmod(join(t.root, '元/卷/000/persona'), 0o700).catch(() => undefined)
  await fs.chmod(join(t.root, '元/卷/001/persona'), 0o700).catch(() => undefined)
  await t.cleanup()
})

function io(stdin = ''): CliIO & { out: string; err: string } {
  const o = { out: '', err: '' } as CliIO & { out: string; err: string }
  o.stdout = (s) => {
    o.out += s
  }
  o.stderr = (s) => {
    o.err += s
  }
  // These tests read the English words; the Chinese ones are checked in cli/language.test.ts.
  o.env = { DSH_HOME: t.home, LANG: 'en_US.UTF-8' }
  o.cwd = t.home
  o.readStdin = async () => stdin
  return o
}

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const i = io(stdin)
  const code = await main(args, i)
  return { code, out: i.out, err: i.err }
}

describe('cyrene memory', () => {
  it('write → list → show → search → log, with --json', async () => {
    const w = await run(['memory', 'write', '她喜欢', '抹茶', '--kind', 'preference', '--axis', '美', '--reason', '口味', '--json'])
    expect(w.code).toBe(0)
    const { id, gate } = JSON.parse(w.out) as { id: string; gate: string }
    expect(gate).toBe('day')
    const l = await run(['memory', 'list'])
    expect(l.out).toContain(id)
    expect(l.out).toContain('她喜欢 抹茶')
    const s = await run(['memory', 'show', id, '--json'])
    expect(JSON.parse(s.out).meta.by).toBe('person')
    expect((await run(['memory', 'search', '抹茶', '--json'])).out).toContain(id)
    // A query no memory shares a word with, nor a translation of one ("like" would translate to 喜欢).
    expect((await run(['memory', 'search', 'xylophone-quartz'])).out).toMatch(/nothing found/)
    expect((await run(['memory', 'log'])).out).toContain(`person wrote ${id}`)
    expect((await run(['memory', 'show', 'no-such-id'])).code).toBe(1)
  })

  it('memory list prints newest first, and --limit keeps the newest (issue 13 item 4)', async () => {
    for (const [text, at] of [
      ['最早的一天', '2026-01-01'],
      ['中间的一天', '2026-02-01'],
      ['同一天较早', '2026-03-01T08:00'],
      ['同一天较晚', '2026-03-01T20:00'],
    ]) {
      expect((await run(['memory', 'write', text!, '--at', at!, '--axis', '美', '--reason', 'r'])).code).toBe(0)
    }
    const lines = (await run(['memory', 'list'])).out.split('\n').filter((l) => l.includes('的一天') || l.includes('同一天'))
    expect(lines.map((l) => /(最早的一天|中间的一天|同一天较早|同一天较晚)/.exec(l)?.[1])).toEqual(['同一天较晚', '同一天较早', '中间的一天', '最早的一天'])
    const json = JSON.parse((await run(['memory', 'list', '--limit', '2', '--json'])).out) as { entries: Array<{ text: string }> }
    expect(json.entries.map((e) => e.text)).toEqual(['同一天较晚', '同一天较早'])
  })

  it('reads text from stdin and reports a pending write with reasons', async () => {
    const r = await run(['memory', 'write', '-'], '决定辞职')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/余页\/待定/)
    expect(r.out).toMatch(/rule 2/)
    expect((await run(['memory', 'list', '--pending', '--json'])).out).toContain('决定辞职')
  })

  it('refuses bad input with exit 2 and a message', async () => {
    const long = await run(['memory', 'write', '字'.repeat(401)])
    expect(long.code).toBe(2)
    expect(long.err).toMatch(/limit is 400/)
    expect((await run(['memory', 'write', 'x', '--link', 'a|朋友'])).err).toMatch(/link type/)
    expect((await run(['memory', 'write', 'x', '--bogus'])).code).toBe(2)
    expect((await run(['memory', 'frobnicate'])).code).toBe(2)
    expect((await run(['memory', 'list', '--limit', '-3'])).code).toBe(2)
  })

  it('check exits 0 when clean and 1 on a malformed comment, naming file and line', async () => {
    await run(['memory', 'write', 'ok', '--axis', '德', '--reason', 'r', '--at', '2026-01-02T12:00:00'])
    expect((await run(['memory', 'check'])).code).toBe(0)
    const f = join(t.root, '岁月涟漪/日档/2026/01/2026-01-02.md')
    await fs.appendFile(f, '\nbad\n<!--cyrene:{nope}-->\n')
    const c = await run(['memory', 'check'])
    expect(c.code).toBe(1)
    expect(c.out).toMatch(/岁月涟漪\/日档\/2026\/01\/2026-01-02\.md:5: .*not valid JSON/)
    expect((await run(['memory', 'list', '--lang', 'en'])).out).toMatch(/1 entry; 1 unreadable/)
    expect((await run(['memory', 'list', '--lang', 'zh'])).out).toMatch(/1 条；1 处注释读不了/)
  })

  it('check reports a retired plugin still installed in a profile', async () => {
    await fs.mkdir(join(t.home, 'profiles/web/node_modules/dsh-cyrene-eternal-page-remembrance'), { recursive: true })
    await fs.writeFile(join(t.home, 'profiles/web/node_modules/dsh-cyrene-eternal-page-remembrance/package.json'), '{}')
    const c = await run(['memory', 'check'])
    expect(c.code).toBe(1)
    expect(c.out).toMatch(/retired plugin dsh-cyrene-eternal-page-remembrance/)
  })

  it('import --jsonl, export, reindex (progress on stderr)', async () => {
    const file = fileURLToPath(new URL('../tests/fixtures/memory/import.jsonl', import.meta.url))
    const i = await run(['memory', 'import', '--jsonl', file])
    expect(i.code).toBe(0)
    expect(i.out).toMatch(/imported 2 entries/)
    expect(i.out).toMatch(/import\.jsonl:4/)
    expect(i.err).toMatch(/import: 2\/2/)
    const e = await run(['memory', 'export'])
    expect(e.out.trim().split('\n')).toHaveLength(2)
    expect(JSON.parse(e.out.split('\n')[0]!).meta.gate).toBe('imported')
    const r = await run(['memory', 'reindex', '--json', '--quiet'])
    expect(JSON.parse(r.out)).toMatchObject({ entries: 2 })
  })

  it('anchor write/show; recheck and untomb', async () => {
    expect((await run(['memory', 'anchor', 'write', 'user', '你喜欢雨天'])).code).toBe(0)
    expect((await run(['memory', 'anchor'])).out).toContain('你喜欢雨天')
    await run(['memory', 'write', '模糊'])
    type Pending = { entries: Array<{ id: string; record: { fails: number; tombstoned_at?: string } }> }
    const pending = async () => JSON.parse((await run(['memory', 'list', '--pending', '--json'])).out) as Pending
    // three runs on one day count one failed month: nothing is tombstoned (issue 11)
    for (let n = 0; n < 3; n++) expect((await run(['memory', 'recheck'])).code).toBe(0)
    const p = await pending()
    expect(p.entries[0]!.record).toMatchObject({ fails: 1 })
    expect(p.entries[0]!.record.tombstoned_at).toBeUndefined()
    expect((await run(['memory', 'untomb', p.entries[0]!.id])).code).toBe(2)
    // two failed months before this one: this month's failure is the third in a row
    const state = join(t.root, '元', '待定复检.json')
    const rec = JSON.parse(await fs.readFile(state, 'utf8'))
    rec.entries[p.entries[0]!.id] = { fails: 2, last_period: 'month:2000-01' }
    await fs.writeFile(state, JSON.stringify(rec))
    expect((await run(['memory', 'recheck'])).code).toBe(0)
    expect((await pending()).entries[0]!.record.tombstoned_at).toBeDefined()
    expect((await run(['memory', 'untomb', p.entries[0]!.id])).code).toBe(0)
    expect((await pending()).entries[0]!.record).toEqual({ fails: 0 })
  })
})

describe('backup, restore, volume, migrate', () => {
  it('backup then restore', async () => {
    await run(['memory', 'write', 'one', '--axis', '德', '--reason', 'r'])
    const b = JSON.parse((await run(['backup', '--json', '--quiet'])).out) as { name: string }
    await run(['memory', 'write', 'two', '--axis', '德', '--reason', 'r'])
    expect((await run(['restore', '--list'])).out).toContain(b.name)
    const r = await run(['restore', b.name])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/To undo: cyrene restore .*pre-restore/)
    const l = await run(['memory', 'list'])
    expect(l.out).toContain('one')
    expect(l.out).not.toContain('two')
    expect((await run(['restore', 'nope'])).code).toBe(2)
  })

  it('volume new needs the confirmation word; volume show', async () => {
    expect((await run(['volume', 'new', '--reason', 'x'])).err).toMatch(/--confirm new-volume/)
    const v = await run(['volume', 'new', '--reason', '人格修订', '--confirm', 'new-volume', '--json'])
    expect(v.code).toBe(0)
    expect(JSON.parse(v.out).id).toBe(1)
    expect((await run(['volume'])).out).toMatch(/current volume 1/)
  })

  it('migrate --dry-run then migrate', async () => {
    const from = fileURLToPath(new URL('../tests/fixtures/memory/legacy-home', import.meta.url))
    const d = await run(['migrate', '--from', from, '--dry-run'])
    expect(d.out).toMatch(/dry run — would import 7/)
    const m = await run(['migrate', '--from', from])
    expect(m.out).toMatch(/imported 7 entries/)
    expect(m.out).toMatch(/skipped .*not confirmed/)
    expect((await run(['memory', 'check'])).code).toBe(0)
    expect((await run(['migrate'])).code).toBe(2)
  })

  it('a relative --root is refused, never resolved against the working directory', async () => {
    const i = io()
    const code = await main(['memory', 'list', '--root', 'relative/path'], i)
    expect(code).toBe(2)
    expect(i.err).toMatch(/absolute path/)
  })
})

describe('input refused with a clear message, nothing changed (issue 7 items 10, 11, 13)', () => {
  const noEntries = async () => JSON.parse((await run(['memory', 'export', '--pending', '--json'])).out || '[]')
  const entryCount = async () => (await run(['memory', 'export', '--pending'])).out.split('\n').filter((l) => l !== '').length

  it('--link to an id that does not exist: exit 2, names the id and how to list ids, nothing written (item 11)', async () => {
    const r = await run(['memory', 'write', '有链接的一条', '--axis', '德', '--reason', 'r', '--link', 'nosuch-id|因果'])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/no entry with id "nosuch-id" to link to; nothing was written.*cyrene memory list/)
    expect(await entryCount()).toBe(0)
    expect((await run(['memory', 'check'])).code).toBe(0)
    const a = JSON.parse((await run(['memory', 'write', '目标', '--json'])).out) as { id: string }
    expect((await run(['memory', 'write', '有链接的一条', '--link', `${a.id}|因果`])).code).toBe(0)
    expect((await run(['memory', 'check'])).code).toBe(0)
  })

  it('--at takes a calendar date or a date-time: 2026-02-30, 12 and 0999-01-01 are refused with the accepted forms (item 13)', async () => {
    for (const at of ['2026-02-30', '12', '0999-01-01', '2026-1-1']) {
      const r = await run(['memory', 'write', '某天', '--at', at])
      expect(r.code, at).toBe(2)
      expect(r.err, at).toMatch(/Accepted: YYYY-MM-DD .*years 1000–9999/)
    }
    expect(await entryCount()).toBe(0)
    expect((await run(['memory', 'write', '某天', '--at', '2026-02-28', '--json'])).out).toContain('2026-02-28.md')
    expect((await run(['memory', 'write', '--help'])).out).toMatch(/--at WHEN/)
  })

  it('invalid UTF-8 on standard input is refused with where it is, never written as U+FFFD (item 13)', async () => {
    const i = io()
    i.readStdin = async () => Buffer.concat([Buffer.from('第一行\n好'), Buffer.from([0xff, 0xfe]), Buffer.from('坏')])
    const code = await main(['memory', 'write', '-'], i)
    expect(code).toBe(2)
    expect(i.err).toMatch(/standard input is not valid UTF-8 \(line 2: byte 0xff at offset 13\); nothing was written/)
    expect(await entryCount()).toBe(0)
    const ok = io()
    ok.readStdin = async () => Buffer.from('正常的 UTF-8')
    expect(await main(['memory', 'write', '-'], ok)).toBe(0)
  })

  it('a text of one zero-width space is refused as empty (item 13)', async () => {
    for (const text of ['\u200b', '\u200d\u2060', '\u200e']) {
      const r = await run(['memory', 'write', text])
      expect(r.code).toBe(2)
      expect(r.err).toMatch(/is empty/)
    }
    expect(await noEntries()).toEqual([])
  })

  it('import: a bad line is refused with its number and the rest goes on; a re-run reports the rest as already imported (items 6, 10, 13)', async () => {
    const file = join(t.home, 'lines.jsonl')
    await fs.writeFile(
      file,
      Buffer.concat([
        Buffer.from(
          [
            '{"text":"没有时间"}',
            '{"text":"古早","at":"0050-01-01T00:00:00Z"}',
            '{"text":"轴坏了","axis":"\\u001b]0;pwned\\u0007智"}',
            '{"text":"半个\\udc00字"}',
            '',
          ].join('\n'),
        ),
        Buffer.from([0xff, 0x0a]),
        Buffer.from('{"text":"最后一行","at":"2026-03-01"}\n'),
      ]),
    )
    for (let n = 0; n < 3; n++) {
      const r = await run(['memory', 'import', '--jsonl', file, '--quiet'])
      expect(r.code).toBe(0)
      expect(r.out).toMatch(n === 0 ? /^imported 2 entries/ : /^imported 0 entries.*2 line\(s\) already imported before/)
      expect(r.out).toMatch(
        /refused .*lines\.jsonl:2: .*1000–9999[\s\S]*lines\.jsonl:3: axis[\s\S]*lines\.jsonl:4: .*lone surrogate[\s\S]*lines\.jsonl:5: not valid UTF-8/,
      )
      expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    }
    expect(await entryCount()).toBe(2)
  })

  it('import: a kind a write refuses refuses its line, never becomes note (as memory write --kind)', async () => {
    const file = join(t.home, 'kinds.jsonl')
    await fs.writeFile(
      file,
      ['{"text":"种类坏了","kind":"BAD KIND"}', '{"text":"大写的种类","kind":"Fact"}', '{"text":"好的一条","kind":"fact"}', ''].join('\n'),
    )
    const r = await run(['memory', 'import', '--jsonl', file, '--quiet'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^imported 1 entr/)
    expect(r.out).toMatch(/kinds\.jsonl:1: kind must be a short lowercase word[\s\S]*kinds\.jsonl:2: kind must be/)
    expect(await entryCount()).toBe(1)
  })

  it('list and show render control characters of a hand-edited file visibly; --json and export escape C1 too (item 10)', async () => {
    const dir = join(t.root, '岁月涟漪/日档/2026/01')
    await fs.mkdir(dir, { recursive: true })
    await fs.writeFile(
      join(dir, '2026-01-05.md'),
      '红色\u001b[31m标题\u001b]0;title\u0007\u009b2J\r完\n<!--cyrene:{"id":"hand-1","kind":"note","axis":"\\u001b[5m","tag":"\u0085"}-->\n',
    )
    const outputs = [
      await run(['memory', 'list']),
      await run(['memory', 'show', 'hand-1']),
      await run(['memory', 'show', 'hand-1', '--json']),
      await run(['memory', 'export']),
      await run(['memory', 'search', '标题']),
      await run(['memory', 'log']),
    ]
    for (const o of outputs) {
      expect(o.code).toBe(0)
      expect(o.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    }
    expect(outputs[1]!.out).toContain('红色\\u001b[31m标题\\u001b]0;title\\u0007\\u009b2J\\u000d完')
    expect(JSON.parse(outputs[2]!.out).text).toBe('红色\u001b[31m标题\u001b]0;title\u0007\u009b2J\r完')
    expect(JSON.parse(outputs[3]!.out.trim()).meta.tag).toBe('\u0085')
  })
})

describe('system and internal failures: one message, no stack, a documented exit code (issue 7 item 12)', () => {
  it('restore onto a store where a file path is now a folder: refused before anything changes (exit 2), names the path and what to do', async () => {
    await run(['memory', 'write', 'one', '--axis', '德', '--reason', 'r', '--at', '2026-01-01'])
    const b = JSON.parse((await run(['backup', '--json', '--quiet'])).out) as { name: string }
    const f = join(t.root, '岁月涟漪/日档/2026/01/2026-01-01.md')
    await fs.rm(f)
    await fs.mkdir(f)
    await fs.writeFile(join(f, 'mine.txt'), 'kept')
    const r = await run(['restore', b.name, '--quiet'])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/nothing was changed/)
    expect(r.err).toMatch(/岁月涟漪\/日档\/2026\/01\/2026-01-01\.md in the store is a folder where the snapshot has a file: move that folder out of the store/)
    expect(r.err).not.toMatch(/\n\s+at /)
    expect(await fs.readFile(join(f, 'mine.txt'), 'utf8')).toBe('kept')
  })

  it('a file where the store needs a folder: exit 3 with the path', async () => {
    await fs.mkdir(join(t.root, '岁月涟漪/日档/2026'), { recursive: true })
    await fs.writeFile(join(t.root, '岁月涟漪/日档/2026/01'), 'not a folder')
    const r = await run(['memory', 'write', 'x', '--axis', '德', '--reason', 'r', '--at', '2026-01-02'])
    expect(r.code).toBe(3)
    expect(r.err).toMatch(/path conflict: .*岁月涟漪\/日档\/2026\/01 is a file where the store needs a folder\. Nothing was changed\./)
  })

  it('an unexpected error: one line saying it is a bug, exit 70; the stack only with CYRENE_DEBUG=1', async () => {
    const i = io()
    i.stdout = () => {
      throw new TypeError('broken output')
    }
    expect(await main(['memory', 'list'], i)).toBe(70)
    expect(i.err).toMatch(/^cyrene memory: unexpected error: TypeError: broken output — this is a bug in cyrene.*CYRENE_DEBUG=1/)
    expect(i.err.trim().split('\n')).toHaveLength(1)
    const d = io()
    d.env = { ...d.env, CYRENE_DEBUG: '1' }
    d.stdout = () => {
      throw new TypeError('broken output')
    }
    expect(await main(['memory', 'list'], d)).toBe(70)
    expect(d.err).toMatch(/\n\s+at .*memory/)
  })

  it('cyrene --help documents the exit codes, in both languages', async () => {
    const zh = (await run(['--help', '--lang', 'zh'])).out
    for (const line of [/0\s+成功/, /1\s+检查发现了问题/, /2\s+输入被拒绝/, /3\s+系统拒绝了：磁盘满（ENOSPC、EDQUOT）/, /70\s+内部错误/])
      expect(zh).toMatch(line)
    const h = await run(['--help', '--lang', 'en'])
    for (const line of [
      /0\s+success/,
      /1\s+a check found a problem/,
      /2\s+input refused/,
      /3\s+the system refused: disk full \(ENOSPC, EDQUOT\), permission denied \(EACCES, EPERM\),\s+read-only file system \(EROFS\)/,
      /70\s+an internal error/,
    ])
      expect(h.out).toMatch(line)
  })
})

it('a write lock record planted as a second name of an anchor (a hard link, left by a tool call) does not reach the anchor when the person writes', async () => {
  expect((await run(['memory', 'anchor', 'write', 'user', '我叫阿青。', '--core'])).code).toBe(0)
  const anchor = join(t.root, '锚', '你是谁.md')
  const before = await fs.readFile(anchor, 'utf8')
  await fs.link(anchor, join(t.root, '元', 'write.lock.owner'))
  const write = await run(['memory', 'write', '今天去爬山了', '--axis', '体', '--reason', '运动'])
  expect(write.code, write.err).toBe(0)
  expect(await fs.readFile(anchor, 'utf8')).toBe(before)
})

import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { deflateSync, crc32 } from 'node:zlib'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readManifest, runConformance, type WhaleExec } from '../whale/conformance.ts'
import { CliError, memoryIO } from './io.ts'
import { run as runCli } from './main.ts'

const run = promisify(execFile)
const repo = path.resolve(import.meta.dirname, '..')
const sample = path.join(repo, 'tests/fixtures/whale-sample')

// ---------------------------------------------------------------- helpers

interface Outcome {
  code: number
  stdout: string
  stderr: string
}

/** Runs `cyrene whale …` in-process, the way main.ts does (CliError → message + code). */
async function whale(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  // The English words are asserted below (cli/whale-language.test.ts checks both languages).
  const io = memoryIO({ DSH_HOME: 'home', LANG: 'en_US.UTF-8', ...env }, cwd)
  try {
    return { code: await runCli(['whale', ...argv], io), stdout: io.out(), stderr: io.err() }
  } catch (error) {
    if (error instanceof CliError) return { code: error.code, stdout: io.out(), stderr: io.err() + error.message }
    throw error
  }
}

const temps: string[] = []
function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'whale-cli-'))
  temps.push(dir)
  return dir
}
afterEach(() => {
  while (temps.length) rmSync(temps.pop()!, { recursive: true, force: true })
})

function put(dir: string, rel: string, content: string | Buffer | object): string {
  const file = path.join(dir, rel)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2))
  return file
}
const read = (dir: string, rel: string): string => readFileSync(path.join(dir, rel), 'utf8')
const json = (text: string): any => JSON.parse(text)
const jsonl = (...o: object[]): string => o.map((x) => JSON.stringify(x)).join('\n') + '\n'

/** A snapshot of every file under dir, to prove a refusal wrote nothing. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const f = path.join(d, name)
      if (statSync(f).isDirectory()) walk(f)
      else out[path.relative(dir, f)] = readFileSync(f).toString('base64')
    }
  }
  walk(dir)
  return out
}

/** A refusal: exit 2, a message that says what is wrong, and not one byte changed under dir. */
async function expectRefusal(dir: string, argv: string[], message: string | RegExp): Promise<void> {
  const before = tree(dir)
  const out = await whale(argv, dir)
  expect(out.code).toBe(2)
  if (typeof message === 'string') expect(out.stderr).toContain(message)
  else expect(out.stderr).toMatch(message)
  expect(tree(dir)).toEqual(before)
}

function png(chunks: [string, Buffer][], opts: { badCrc?: boolean } = {}): Buffer {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]
  for (const [type, data] of chunks) {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(data.length, 0)
    head.write(type, 4, 'latin1')
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (opts.badCrc && type !== 'IEND' ? 1 : 0)) >>> 0, 0)
    parts.push(head, data, crc)
  }
  return Buffer.concat(parts)
}
const ihdr = (): [string, Buffer] => ['IHDR', Buffer.from('0000000100000001080600000000', 'hex').subarray(0, 13)]
const iend = (): [string, Buffer] => ['IEND', Buffer.alloc(0)]
const b64 = (o: object): string => Buffer.from(JSON.stringify(o), 'utf8').toString('base64')

// ---------------------------------------------------------------- the sample through the real bin

describe('whale-sample through the compiled bin (bin/cyrene.js)', () => {
  beforeAll(() => {
    // The bin runs dist/, which `npm test` compiles first. Rebuilding here would race
    // other test files spawning the bin, so a stale build is a clear failure instead.
    const built = path.join(repo, 'dist/cli/whale.js')
    // Test files are not compiled into dist/, so editing one does not make the build stale.
    const sources = [
      ...readdirSync(path.join(repo, 'whale')).map((f) => path.join(repo, 'whale', f)),
      ...readdirSync(path.join(repo, 'cli'))
        .filter((f) => f.startsWith('whale'))
        .map((f) => path.join(repo, 'cli', f)),
    ].filter((f) => !f.endsWith('.test.ts'))
    const stale = !existsSync(built) || sources.some((f) => statSync(f).mtimeMs > statSync(built).mtimeMs)
    if (stale) throw new Error('dist/ is older than whale/ sources: run `npm run compile` (npm test does it first)')
  })

  const binExec: WhaleExec = async (argv, env, cwd) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [path.join(repo, 'bin/cyrene.js'), 'whale', ...argv], {
        cwd,
        env: { ...env },
        maxBuffer: 16 * 1024 * 1024,
      })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string }
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
    }
  }

  const ownCases = path.join(repo, 'tests/fixtures/whale')
  it.each(readManifest(ownCases).map((c) => c.id))('own case %s', async (id) => {
    const report = await runConformance(ownCases, binExec, { only: [id] })
    expect(report.cases).toHaveLength(1)
    expect(report.cases[0]!.failures).toEqual([])
  })

  const ids = readManifest(sample).map((c) => c.id)
  it('has the 32 vendored cases', () => {
    expect(ids).toHaveLength(32)
  })
  it.each(ids)('%s', async (id) => {
    const report = await runConformance(sample, binExec, { only: [id] })
    expect(report.cases).toHaveLength(1)
    expect(report.cases[0]!.failures).toEqual([])
  })
  it('`cyrene whale conformance` over the sample folder reports 32/32 and exits 0', async () => {
    const out = await binExec(['conformance', sample], { LANG: 'en_US.UTF-8' }, repo)
    expect(out.stdout).toContain('32/32 cases pass')
    expect(out.code).toBe(0)
  })
  it('`--command` drives another command line (here: the bin again, as an external program)', async () => {
    const out = await whale(
      [
        'conformance',
        sample,
        '--json',
        '--case',
        'R06-demo-flash',
        '--case',
        'S01-confirm-and-sink',
        '--command',
        process.execPath,
        '--command-arg',
        path.join(repo, 'bin/cyrene.js'),
        '--command-arg',
        'whale',
      ],
      repo,
    )
    expect(json(out.stdout)).toMatchObject({ total: 2, passed: 2 })
    const missing = await whale(['conformance', sample, '--case', 'R01-empty-config', '--command', '/nonexistent/program'], repo)
    expect(missing.code).toBe(1)
    expect(missing.stdout).toContain('FAIL  R01-empty-config')
  })
})

// ---------------------------------------------------------------- render

describe('cyrene whale render', () => {
  it('previews three empty segments with the §9 wording when nothing is configured', async () => {
    const dir = scratch()
    const out = await whale(['render'], dir, { LANG: 'zh_CN.UTF-8' })
    expect(out.code).toBe(0)
    expect(out.stdout.split('(空 —— 该段不会出现在系统提示词里)')).toHaveLength(4)
    expect(out.stdout).toContain('=== whale:thinking-language ===')
  })
  it('honours DSH_WHALE_CONFIG, the legacy whale-suite layout, --config, --cwd and --capture', async () => {
    const dir = scratch()
    put(dir, 'home/whale-suite/config.json', { persona: { character: 'legacy' } })
    expect(json((await whale(['render', '--json'], dir)).stdout).prefix).toBe('legacy')
    put(dir, 'elsewhere.json', { persona: { character: 'env', suffix: '@{{cwd}}' }, memory: { enabled: true } })
    const viaEnv = json((await whale(['render', '--json', '--cwd', '/x/y', '--capture'], dir, { DSH_WHALE_CONFIG: 'elsewhere.json' })).stdout)
    expect(viaEnv.prefix.startsWith('env\n\n【长期记忆 · 入库纪律】')).toBe(true)
    // DSH_WHALE_CONFIG moves only the config: the default inbox stays in the DSH_HOME config dir
    expect(viaEnv.prefix).toContain('home/whale-suite/memory-inbox.jsonl')
    expect(viaEnv.suffix).toBe('@/x/y')
    expect(viaEnv.captureActive).toBe(true)
    put(dir, 'flag.json', { persona: { character: 'flag' } })
    expect(json((await whale(['render', '--json', '--config', 'flag.json'], dir, { DSH_WHALE_CONFIG: 'elsewhere.json' })).stdout).prefix).toBe('flag')
  })
  it('degrades huge and binary configs to "no persona"', async () => {
    const dir = scratch()
    put(dir, 'big.json', '{"persona":{"character":"' + 'x'.repeat(5 * 1024 * 1024) + '"}}')
    put(dir, 'bin.json', Buffer.from([0, 1, 2, 255, 254]))
    for (const f of ['big.json', 'bin.json', 'missing-dir', '/dev/zero', '.']) {
      const out = await whale(['render', '--json', '--config', f], dir)
      expect(out.code).toBe(0)
      expect(json(out.stdout).prefix).toBe('')
    }
  })
  it('refuses unknown options with a usage line', async () => {
    const out = await whale(['render', '--bogus'], scratch())
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('Usage: cyrene whale render')
  })
  it('matches renderSegments byte for byte (what a DSH row would inject)', async () => {
    const dir = scratch()
    const { renderSegments } = await import('../whale/render.ts')
    const { loadRenderInput } = await import('../whale/files.ts')
    put(dir, 'home/whale-persona/config.json', { thinkingLanguage: 'ko', persona: { stance: 'S', suffix: 'T' }, memory: { enabled: true } })
    put(dir, 'home/whale-persona/memory-inbox.jsonl', jsonl({ text: 'm', status: 'confirmed' }))
    const cli = json((await whale(['render', '--json', '--model', 'x-pro', '--cwd', '/p'], dir)).stdout)
    const direct = renderSegments(loadRenderInput({ env: { DSH_HOME: 'home' }, cwd: dir }, { model: 'x-pro', hostCwd: '/p' }))
    expect(cli).toEqual(JSON.parse(JSON.stringify(direct)))
    expect(direct.prefix).toContain('「m」')
  })
})

// ---------------------------------------------------------------- inbox

describe('cyrene whale inbox', () => {
  function setup(sinks: object = {}): string {
    const dir = scratch()
    put(dir, 'home/whale-persona/config.json', { memory: { enabled: true, sinks } })
    put(
      dir,
      'home/whale-persona/memory-inbox.jsonl',
      jsonl(
        { text: 'm1', status: 'proposed', at: '2026-01-01T00:00:00Z' },
        { text: 'idea one', status: 'proposed', kind: 'idea', at: '2026-01-02T10:00:00Z' },
        { text: 'dup', status: 'proposed' },
        { text: 'dup', status: 'proposed' },
      ),
    )
    return dir
  }
  const inbox = (dir: string): string => read(dir, 'home/whale-persona/memory-inbox.jsonl')

  it('list --json shows the replayed view', async () => {
    const dir = setup()
    const view = json((await whale(['inbox', 'list', '--json'], dir)).stdout)
    expect(view.map((e: any) => [e.text, e.status, e.kind])).toEqual([
      ['m1', 'proposed', 'memory'],
      ['idea one', 'proposed', 'idea'],
      ['dup', 'proposed', 'memory'],
      ['dup', 'proposed', 'memory'],
    ])
  })
  it('confirm appends confirm lines, routes sink kinds and drops them; a second confirm writes nothing more', async () => {
    const dir = setup({ idea: { path: 'out/ideas.md', header: '# Ideas' } })
    const report = json((await whale(['inbox', 'confirm', '0', '1', '--json'], dir)).stdout)
    expect(report).toMatchObject({ confirmed: 2, noRoute: [], errors: [], sunk: [{ index: 1, kind: 'idea', path: 'home/whale-persona/out/ideas.md' }] })
    expect(read(dir, 'home/whale-persona/out/ideas.md')).toBe('# Ideas\n- idea one（2026-01-02）\n')
    const view = json((await whale(['inbox', 'list', '--json'], dir)).stdout)
    expect(view.map((e: any) => [e.text, e.status])).toEqual([
      ['m1', 'confirmed'],
      ['dup', 'proposed'],
      ['dup', 'proposed'],
    ])
    const before = inbox(dir)
    const again = json((await whale(['inbox', 'confirm', '0', '--json'], dir)).stdout)
    expect(again.confirmed).toBe(0)
    expect(inbox(dir)).toBe(before)
    const log = read(dir, 'home/whale-persona/sink-log.jsonl').trim().split('\n').map(json)
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({ kind: 'idea', format: 'md', line: '- idea one（2026-01-02）', source: 'cyrene' })
  })
  it('concurrent confirms of the same entry write one confirm line (the inbox is locked)', async () => {
    const dir = setup()
    await Promise.all([whale(['inbox', 'confirm', '0'], dir), whale(['inbox', 'confirm', '0'], dir)])
    expect(
      inbox(dir)
        .split('\n')
        .filter((l) => l.includes('"op":"confirm"')),
    ).toHaveLength(1)
  })
  it('a sink line already in the sink log is not written twice', async () => {
    const dir = setup({ idea: { path: 'out/ideas.md' } })
    await whale(['inbox', 'confirm', '1'], dir)
    put(dir, 'home/whale-persona/memory-inbox.jsonl', inbox(dir) + jsonl({ text: 'idea one', status: 'proposed', kind: 'idea', at: '2026-01-02T11:00:00Z' }))
    const report = json((await whale(['inbox', 'confirm', '3', '--json'], dir)).stdout)
    expect(report.skipped).toMatchObject([{ index: 3, kind: 'idea', reason: 'already-sunk' }])
    expect(read(dir, 'home/whale-persona/out/ideas.md')).toBe('- idea one（2026-01-02）\n')
    // sink idempotency (issue 14): the skipped entry got no drop line, so it is still there and the message says so
    const view = json((await whale(['inbox', 'list', '--json'], dir)).stdout)
    expect(view.filter((e: any) => e.text === 'idea one')).toHaveLength(1)
    expect((await whale(['inbox', 'confirm', String(view.findIndex((e: any) => e.text === 'idea one'))], dir)).stdout).toContain('kept in the inbox')
  })
  it('a kind without a route is reported and kept', async () => {
    const dir = setup()
    const out = await whale(['inbox', 'confirm', '1'], dir)
    expect(out.stdout).toContain('kind "idea" has no route')
    expect(json((await whale(['inbox', 'list', '--json'], dir)).stdout)[1]).toMatchObject({ text: 'idea one', status: 'confirmed' })
  })
  it('refuses sink paths that escape the config folder or hit the inbox; the entry stays', async () => {
    for (const target of [
      '../../escape.md',
      'memory-inbox.jsonl',
      'sink-log.jsonl',
      'config.json',
      ...(process.platform === 'win32' ? [] : ['D:/notes/x.md']),
    ]) {
      const dir = setup({ idea: { path: target } })
      const out = await whale(['inbox', 'confirm', '1', '--json'], dir)
      expect(out.code).toBe(1)
      expect(json(out.stdout).errors).toHaveLength(1)
      expect(existsSync(path.join(dir, 'escape.md'))).toBe(false)
      expect(json((await whale(['inbox', 'list', '--json'], dir)).stdout).map((e: any) => e.text)).toContain('idea one')
    }
  })
  it.each([
    [['confirm'], 'give at least one index'],
    [['confirm', '9'], 'outside the inbox'],
    [['drop', '-1'], 'Unknown option'],
    [['drop', 'x'], 'is not an index'],
    [['reject', '0', '0'], 'given twice'],
    [['confirm', '3'], 'same text as entry 2'],
    [['drop', '3'], 'same text as entry 2'],
  ])('refuses %j and writes nothing', async (args, message) => {
    const dir = setup()
    await expectRefusal(dir, ['inbox', ...args], message)
  })
  it('drop and reject append one line each; both duplicates can be dropped together', async () => {
    const dir = setup()
    const out = json((await whale(['inbox', 'drop', '3', '2', '--json'], dir)).stdout)
    expect(out.lines.map((l: any) => [l.op, l.ref])).toEqual([
      ['drop', 'dup'],
      ['drop', 'dup'],
    ])
    await whale(['inbox', 'reject', '0'], dir)
    expect(json((await whale(['inbox', 'list', '--json'], dir)).stdout).map((e: any) => e.text)).toEqual(['idea one'])
  })
  it('appends on a new line even when the file does not end with one', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/memory-inbox.jsonl', JSON.stringify({ text: 'last', status: 'proposed' }))
    await whale(['inbox', 'confirm', '0'], dir)
    expect(json((await whale(['inbox', 'list', '--json'], dir)).stdout)).toMatchObject([{ text: 'last', status: 'confirmed' }])
  })
  it('log prints the raw lines for audit', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/memory-inbox.jsonl', 'not json\n{"text":"a"}\n')
    const out = await whale(['inbox', 'log'], dir)
    expect(out.stdout).toContain('    1  not json\n    2  {"text":"a"}\n')
  })
  it('an unreadable (huge) inbox is refused for confirm, not rewritten', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/memory-inbox.jsonl', 'x'.repeat(33 * 1024 * 1024))
    const out = await whale(['inbox', 'confirm', '0'], dir)
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('cannot read the inbox')
  })
})

// ---------------------------------------------------------------- presets

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
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/EEXIST|ENOTDIR/)
    expect(out.stderr).toContain('permissions')
  })
  it('import refuses existing ids without --force and reserved autosave', async () => {
    const dir = setup()
    put(dir, 'c.json', { spec: 'chara_card_v2', data: { name: 'P1', description: 'x' } })
    const out = json((await whale(['presets', 'import', 'c.json', '--json'], dir)).stdout)
    expect(out).toMatchObject({ ok: false, detected: 'tavern-v2' })
    expect(out.error).toContain('already exists')
    put(dir, 'a.json', { id: 'autosave', persona: { character: 'x' } })
    expect((await whale(['presets', 'import', 'a.json'], dir)).stderr).toContain('reserved')
  })
  it('card round trip: export --tavern then import into the same home succeeds and leaves the preset as it was; a changed card needs --force (issue 14 item "card round trip")', async () => {
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
    const refused = await whale(['presets', 'import', 'one-card.json'], dir)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--force')
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
  it('import refuses a huge JSON file', async () => {
    const dir = setup()
    put(dir, 'card.json', '{"name":"' + 'x'.repeat(5 * 1024 * 1024) + '"}')
    const out = await whale(['presets', 'import', 'card.json'], dir)
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('larger than')
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
  it('a system_prompt with no usable line is reported, not claimed as mapped', async () => {
    const dir = setup()
    put(dir, 'card.json', { name: 'N', description: 'd', system_prompt: 'x\n-\n' + 'y'.repeat(400) })
    const out = json((await whale(['presets', 'import', 'card.json', '--json', '--dry-run'], dir)).stdout)
    expect(out.detected).toBe('tavern-v1')
    expect(out.mapped).toEqual(['description'])
    // a v1 card has no data: its fields are named as it has them
    expect(out.unmapped).toContain('system_prompt')
    expect(out.unmapped.filter((f: string) => f.startsWith('data.'))).toEqual([])
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

describe('cyrene whale conformance', () => {
  it('reports per case in JSON and fails when a case fails', async () => {
    const dir = scratch()
    const copy = path.join(dir, 'sample')
    const { cpSync } = await import('node:fs')
    cpSync(sample, copy, { recursive: true })
    writeFileSync(path.join(copy, 'cases/R08-thinking-en/expected/thinking.txt'), 'something else')
    const out = await whale(['conformance', 'sample', '--json', '--case', 'R08-thinking-en', '--case', 'R13-thinking-unknown'], dir)
    expect(out.code).toBe(1)
    const report = json(out.stdout)
    expect(report).toMatchObject({ total: 2, passed: 1, failed: 1 })
    expect(report.cases[0].failures[0]).toContain('thinking')
  })
  it('refuses a folder without a manifest, or with one that is not JSON', async () => {
    const dir = scratch()
    const out = await whale(['conformance', '.'], dir)
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('no manifest.json')
    put(dir, 'manifest.json', '{ nope')
    expect((await whale(['conformance', '.'], dir)).stderr).toContain('is not a manifest')
  })
})

describe('cyrene whale reflex check', () => {
  it('reports no match with zero rules, a hit from reflex.json, and nothing with DSH_REFLEX_OFF=1', async () => {
    const dir = scratch()
    expect((await whale(['reflex', 'check', 'hello'], dir)).stdout).toContain('No rule matches (0 rule(s)')
    put(dir, 'home/whale-persona/reflex.json', { rules: [{ id: 'hi', when: { text: '^hello$' }, then: { reply: '你好' } }] })
    const out = json((await whale(['reflex', 'check', 'hello', '--json'], dir)).stdout)
    expect(out.hit).toMatchObject({ id: 'hi', channel: 'text', soft: false, ledger: { id: 'hi', excerpt: 'hello', dryRun: true } })
    expect((await whale(['reflex', 'check', 'hello'], dir, { DSH_REFLEX_OFF: '1' })).stdout).toContain('switched off')
    put(dir, 'rules.json', { rules: [] })
    expect(json((await whale(['reflex', 'check', 'hello', '--json'], dir, { DSH_REFLEX_RULES: 'rules.json' })).stdout).hit).toBeNull()
  })
})

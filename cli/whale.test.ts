import { execFile } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readManifest, runConformance, type WhaleExec } from '../whale/conformance.ts'
import { memoryIO } from './io.ts'
import { main } from './main.ts'
import {
  expectJsonRefusals,
  expectRefusal,
  json,
  jsonl,
  type JsonRefusal,
  put,
  read,
  repo,
  sample,
  removeScratch,
  scratch,
  tree,
  whale,
} from './testing/whale-cli.ts'

const run = promisify(execFile)
afterEach(removeScratch)

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
    const typo = await whale(['conformance', sample, '--case', 'R01-empty-confg'], repo)
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('no case R01-empty-confg')
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
  it('refuses an inbox, a sink or a sink log inside the memory store (through a link too): nothing is written there', async () => {
    const dir = setup()
    const store = path.join(dir, 'home/cyrene-philia093-0')
    put(dir, 'home/cyrene-philia093-0/余页/ideas.md', '# mine\n')
    symlinkSync(path.join(store, '余页'), path.join(dir, 'elsewhere'))
    for (const memory of [
      { sinks: { idea: { path: path.join(store, '余页/ideas.md') } } },
      { sinks: { idea: { path: path.join(dir, 'elsewhere/ideas.md') } } },
      { sinks: { idea: { path: path.join(dir, 'out.md') } }, sinkLog: path.join(store, '余页/sink-log.jsonl') },
    ]) {
      put(dir, 'home/whale-persona/config.json', { memory: { enabled: true, ...memory } })
      const out = await whale(['inbox', 'confirm', '1', '--json'], dir)
      expect(out.code).toBe(1)
      expect(json(out.stdout).errors[0].error).toContain("inside Cyrene's memory store")
      expect(read(dir, 'home/cyrene-philia093-0/余页/ideas.md')).toBe('# mine\n')
      expect(existsSync(path.join(store, '余页/sink-log.jsonl'))).toBe(false)
      expect(existsSync(path.join(dir, 'out.md'))).toBe(false)
    }
    put(dir, 'home/cyrene-philia093-0/余页/inbox.jsonl', jsonl({ text: 'in the store', status: 'proposed' }))
    put(dir, 'home/whale-persona/config.json', { memory: { enabled: true, inboxPath: path.join(store, '余页/inbox.jsonl') } })
    const before = read(dir, 'home/cyrene-philia093-0/余页/inbox.jsonl')
    for (const verb of ['confirm', 'reject', 'drop']) {
      const out = await whale(['inbox', verb, '0'], dir)
      expect(out.code, out.stderr).toBe(2)
      expect(out.stderr).toContain('Nothing was written')
    }
    expect(read(dir, 'home/cyrene-philia093-0/余页/inbox.jsonl')).toBe(before)
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
  it('a lock nobody can hold (a link where its folder goes) refuses reject, drop and confirm with exit 2 and what to remove', async () => {
    const dir = setup()
    const inbox = path.join(dir, 'home/whale-persona/memory-inbox.jsonl')
    symlinkSync(path.join(dir, 'nowhere'), `${inbox}.lock`)
    const before = read(dir, 'home/whale-persona/memory-inbox.jsonl')
    for (const verb of ['reject', 'drop', 'confirm']) {
      const out = await whale(['inbox', verb, '0'], dir)
      expect(out.code, out.stderr).toBe(2)
      expect(out.stderr).toContain(`rm '${inbox}.lock'`)
    }
    expect(read(dir, 'home/whale-persona/memory-inbox.jsonl')).toBe(before)
  })
  it('list and log show the control characters of a proposed line, never hand them to the terminal', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/memory-inbox.jsonl', '{"text":"evil \\u001b[2J","status":"proposed"}\n\u001b[31m raw\n')
    expect((await whale(['inbox', 'list'], dir)).stdout).toContain('evil \\u001b[2J')
    const log = (await whale(['inbox', 'log'], dir)).stdout
    expect(log).toContain('\\u001b[31m raw')
    expect(log).not.toContain('\u001b')
  })
  it('log prints the raw lines for audit', async () => {
    const dir = setup()
    put(dir, 'home/whale-persona/memory-inbox.jsonl', 'not json\n{"text":"a"}\n')
    const out = await whale(['inbox', 'log'], dir)
    expect(out.stdout).toContain('    1  not json\n    2  {"text":"a"}\n')
  })
  it('with --json every refusal of list, confirm, reject and drop is one JSON object on stdout, in English, exit 2, nothing written', async () => {
    const dir = setup()
    const inbox = path.join(dir, 'home/whale-persona/memory-inbox.jsonl')
    const refusals: JsonRefusal[] = [
      [['inbox', 'confirm', '9', '--json'], 'index 9 is outside the inbox', { confirmed: 0, sunk: [], skipped: [], noRoute: [], errors: [] }],
      [['inbox', 'confirm', 'x', '--json'], '"x" is not an index', { confirmed: 0 }],
      [['inbox', 'confirm', '0', '0', '--json'], 'Nothing was written', { confirmed: 0 }],
      [['inbox', 'confirm', '--json'], 'give at least one index', { confirmed: 0 }],
      [['inbox', 'reject', '7', '--json'], 'index 7 is outside the inbox', { op: 'reject', appended: 0, lines: [] }],
      [['inbox', 'drop', '--json'], 'give at least one index', { op: 'drop', appended: 0, lines: [] }],
      // a refusal of how the command was written, the --json before or after it
      [['inbox', 'confirm', '0', '--json', '--bogus'], "Unknown option '--bogus'", { confirmed: 0 }],
      [['inbox', 'drop', '--bogus', '0', '--json'], "Unknown option '--bogus'", { op: 'drop' }],
      [['inbox', 'list', '--json', '--config'], 'argument missing', {}],
    ]
    const before = tree(dir)
    await expectJsonRefusals(dir, refusals, { stderrToo: true })
    // a lock nobody can hold
    symlinkSync(path.join(dir, 'nowhere'), `${inbox}.lock`)
    const locked = await whale(['inbox', 'confirm', '0', '--json'], dir)
    expect(locked.code).toBe(2)
    expect(json(locked.stdout)).toMatchObject({ ok: false, confirmed: 0 })
    expect(json(locked.stdout).error).toContain(`rm '${inbox}.lock'`)
    rmSync(`${inbox}.lock`)
    expect(tree(dir)).toEqual(before)
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

describe('cyrene whale … --json refusals', () => {
  it('every command that takes --json answers a refusal with one JSON object {ok: false, error} on stdout, in English, exit 2', async () => {
    const dir = scratch()
    put(dir, 'home/whale-persona/presets/broken.json', '{')
    const refusals: JsonRefusal[] = [
      [['presets', 'show', 'nope', '--json'], 'no preset "nope"', {}],
      [['presets', 'show', 'broken', '--json'], 'not valid JSON', {}],
      [['presets', 'show', '--json'], 'give a preset id', {}],
      [['presets', 'apply', '--json'], 'give a preset id', { changed: false, autosaveWritten: false }],
      [['presets', 'import', '--json'], 'give the card file', { detected: 'unknown', savedId: null, savedFile: null }],
      [['presets', 'import', 'card.json', '--json', '--bogus'], "Unknown option '--bogus'", { savedId: null }],
      [['presets', 'list', '--json', '--config'], 'argument missing', {}],
      [['render', '--json', '--model'], 'argument missing', {}],
      [['reflex', 'check', '--json'], 'Usage: cyrene whale reflex check', {}],
      [['conformance', '--json'], 'give exactly one folder', {}],
      [['conformance', 'nowhere', '--json'], 'no manifest.json', {}],
    ]
    const before = tree(dir)
    await expectJsonRefusals(dir, refusals)
    expect(tree(dir)).toEqual(before)
    // without --json a refusal stays a message on stderr alone
    expect((await whale(['presets', 'show', 'nope'], dir)).stdout).toBe('')
  })
  it('an unknown sub-command, a group without one and the commands that had no --json answer --json with one JSON object (decision 329)', async () => {
    const dir = scratch()
    put(dir, 'home/whale-persona/presets/kept.json', { spec: 'whale-persona-preset/1', id: 'kept', label: 'Kept', persona: {} })
    const refusals: JsonRefusal[] = [
      [['bogus', '--json'], 'unknown sub-command "bogus"', {}],
      [['presets', 'bogus', '--json'], 'Run `cyrene whale presets --help`', {}],
      [['inbox', 'bogus', 'x', '--json'], 'unknown sub-command "bogus"', {}],
      [['reflex', 'bogus', '--json'], 'unknown sub-command "bogus"', {}],
      [['presets', 'help', '--json'], 'give a sub-command (list, show, apply, save, delete, dir, import, export)', {}],
      [['presets', '--json'], "Unknown option '--json'", {}],
      [['presets', 'save', '--json'], 'give an id for the new preset', { savedId: null, savedFile: null }],
      [['presets', 'save', 'kept', '--json'], 'already exists', { savedId: null, savedFile: null }],
      [['presets', 'delete', 'nope', '--json'], 'no preset "nope"', { deletedId: null, deletedFile: null }],
      [['presets', 'delete', '--json'], 'give a preset id', { deletedId: null }],
      [['presets', 'export', 'nope', '--json'], 'no preset "nope"', { savedFile: null }],
      [['presets', 'export', 'kept', 'home/whale-persona/presets/kept.json', '--json'], 'already exists', { savedFile: null }],
      [['presets', 'dir', '--json', '--config'], 'argument missing', {}],
      [['inbox', 'log', '--json', '--bogus'], "Unknown option '--bogus'", { lines: [] }],
    ]
    const before = tree(dir)
    await expectJsonRefusals(dir, refusals)
    expect(tree(dir)).toEqual(before)
    // without --json these stay a message on stderr (or the help) alone
    expect((await whale(['presets', 'bogus'], dir)).stdout).toBe('')
    expect((await whale(['presets', 'help'], dir)).stdout).toContain('Usage: cyrene whale presets')
  })
  it('save, delete, dir, export to a file and inbox log report with --json; without it they say what they said', async () => {
    const dir = scratch()
    const presets = path.join(dir, 'home/whale-persona/presets')
    put(dir, 'home/whale-persona/config.json', { persona: { character: 'Quiet.' } })
    const saved = await whale(['presets', 'save', 'mine', 'My', 'label', '--json'], dir)
    expect(saved.code).toBe(0)
    // located as the config is: DSH_HOME is relative here (as in the human words)
    const presetsDir = 'home/whale-persona/presets'
    expect(json(saved.stdout)).toEqual({ ok: true, savedId: 'mine', savedFile: path.join(presetsDir, 'mine.json') })
    expect(json(read(dir, 'home/whale-persona/presets/mine.json'))).toMatchObject({ id: 'mine', label: 'My label' })
    expect(json((await whale(['presets', 'dir', '--json'], dir)).stdout)).toEqual({ ok: true, presetsDir })
    const exported = await whale(['presets', 'export', 'mine', 'card.json', '--tavern', '--json'], dir)
    expect(json(exported.stdout)).toEqual({ ok: true, id: 'mine', format: 'tavern', savedFile: path.join(dir, 'card.json') })
    expect(json(read(dir, 'card.json'))).toMatchObject({ spec: 'chara_card_v2' })
    const whaleFile = await whale(['presets', 'export', 'mine', 'mine-copy.json', '--json'], dir)
    expect(json(whaleFile.stdout)).toMatchObject({ ok: true, format: 'whale-persona' })
    // without OUT the card is the output, one JSON object with or without --json
    expect((await whale(['presets', 'export', 'mine', '--json'], dir)).stdout).toBe((await whale(['presets', 'export', 'mine'], dir)).stdout)
    const deleted = await whale(['presets', 'delete', 'mine', '--json'], dir)
    expect(json(deleted.stdout)).toEqual({ ok: true, deletedId: 'mine', deletedFile: path.join(presetsDir, 'mine.json') })
    expect(existsSync(path.join(presets, 'mine.json'))).toBe(false)
    const inbox = 'home/whale-persona/memory-inbox.jsonl'
    expect(json((await whale(['inbox', 'log', '--json'], dir)).stdout)).toEqual({ inboxFile: inbox, exists: false, lines: [] })
    const lines = ['{"op":"propose","text":"a"}', 'not json']
    put(dir, 'home/whale-persona/memory-inbox.jsonl', `${lines.join('\r\n')}\n`)
    expect(json((await whale(['inbox', 'log', '--json'], dir)).stdout)).toEqual({ inboxFile: inbox, exists: true, lines })
    // the words without --json are as they were
    expect((await whale(['inbox', 'log'], dir)).stdout).toBe(`# ${inbox}\n    1  ${lines[0]}\n    2  not json\n`)
    expect((await whale(['presets', 'dir'], dir)).stdout).toBe(`${presetsDir}\n`)
    expect((await whale(['presets', 'save', 'again'], dir)).stdout).toBe(`Saved the current persona as "again" in ${path.join(presetsDir, 'again.json')}.\n`)
  })
  it('a bug (exit 70) given --json is one JSON object too, in English; without --json only the message', async () => {
    const dir = scratch()
    // An environment that breaks where no refusal is expected: reading DSH_REFLEX_OFF throws.
    const broken = (): NodeJS.ProcessEnv =>
      new Proxy({ DSH_HOME: 'home', LANG: 'en_US.UTF-8' } as NodeJS.ProcessEnv, {
        get: (target, key) => {
          if (key === 'DSH_REFLEX_OFF') throw new TypeError('the environment broke')
          return target[key as string]
        },
      })
    for (const lang of ['en', 'zh']) {
      const io = memoryIO(broken(), dir)
      expect(await main(['--lang', lang, 'whale', 'reflex', 'check', 'hello', '--json'], io)).toBe(70)
      const report = json(io.out())
      expect(report.ok).toBe(false)
      expect(report.error).toContain('TypeError: the environment broke')
      expect(io.err()).toContain('the environment broke')
    }
    const plain = memoryIO(broken(), dir)
    expect(await main(['whale', 'reflex', 'check', 'hello'], plain)).toBe(70)
    expect(plain.out()).toBe('')
    expect(plain.err()).toContain('TypeError: the environment broke')
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

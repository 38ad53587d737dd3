import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assignSides } from '../../persona-ab/order.ts'
import type { Report } from '../../persona-ab/report.ts'
import { withLocalBin } from '../../scripts/dsh-web.ts'
import { PROJECT_ROOT } from '../harness/host.ts'

/**
 * Issue 15: `npm run persona:ab -- --offline` end to end in the real `dsh web`:
 * the base persona from a commit, the change from the working tree, every
 * shipped scenario on both, and one scenario that cannot even be set up.
 * The base commit is made with git plumbing (objects only: no ref, no change
 * to the working tree or the index).
 */
const WORK = join(PROJECT_ROOT, '.cache', 'persona-ab')
const MARK = '（A/B 测试：这是旧版人格。）'
const SEED = 11

let dir: string
let baseCommit: string
let result: { status: number | null; stdout: string; stderr: string }
let report: Report

function git(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string {
  const run = spawnSync('git', args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, input, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
  return run.stdout.trim()
}

/** A commit whose persona/chat.md carries MARK, on top of HEAD's tree. */
function commitWithMarkedPersona(): string {
  const index = join(dir, 'index')
  const chat = git(['show', 'HEAD:persona/chat.md'])
  const blob = git(['hash-object', '-w', '--stdin'], {}, `${chat}\n${MARK}\n`)
  git(['read-tree', 'HEAD'], { GIT_INDEX_FILE: index })
  git(['update-index', '--cacheinfo', `100644,${blob},persona/chat.md`], { GIT_INDEX_FILE: index })
  const tree = git(['write-tree'], { GIT_INDEX_FILE: index })
  return git(['commit-tree', tree, '-p', 'HEAD', '-m', 'persona A/B test base'], {
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  })
}

/** The command, run without blocking this worker (a synchronous wait of minutes starves vitest's own RPC). */
async function ab(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'persona-ab', 'main.ts'), ...args], { cwd: PROJECT_ROOT, env: withLocalBin() })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  return { status, stdout, stderr }
}

describe('npm run persona:ab -- --offline (issue 15)', () => {
  beforeAll(async () => {
    mkdirSync(WORK, { recursive: true })
    dir = mkdtempSync(join(WORK, 'run-'))
    baseCommit = commitWithMarkedPersona()
    const scenarios = join(dir, 'scenarios')
    cpSync(join(PROJECT_ROOT, 'persona-ab', 'scenarios'), scenarios, { recursive: true })
    // A memory over the 400-character limit: seeding refuses it, so this scenario fails before dsh web starts.
    writeFileSync(
      join(scenarios, '99-cannot-seed.yml'),
      `id: 99-cannot-seed\ntitle: 坏场景\nwatch: 无\nturns: [你好]\nmemories:\n  - text: ${'长'.repeat(500)}\n`,
    )
    result = await ab(['--base', baseCommit, '--offline', '--seed', String(SEED), '--scenarios', scenarios, '--out', join(dir, 'out'), '--concurrency', '2'])
    if (!existsSync(join(dir, 'out', 'report.json'))) throw new Error(`no report (exit ${result.status}):\n${result.stderr}`)
    report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report
  }, 1_600_000)

  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('runs all 20 shipped scenarios on both versions; the one that cannot be set up fails alone and says why', () => {
    expect(result.status, result.stderr).toBe(1)
    const shipped = report.scenarios.filter((s) => s.id !== '99-cannot-seed')
    expect(shipped).toHaveLength(20)
    for (const s of shipped)
      for (const version of ['base', 'change'] as const) {
        const run = report.runs.find((r) => r.scenario === s.id && r.version === version)
        expect(run?.ok, `${s.id} · ${version}: ${run?.error}`).toBe(true)
        expect(run?.transcript?.turns.map((t) => t.user)).toEqual(s.turns)
        expect(run?.transcript?.turns.every((t) => t.reply !== '')).toBe(true)
      }
    const bad = report.runs.filter((r) => r.scenario === '99-cannot-seed')
    expect(bad.map((r) => r.ok)).toEqual([false, false])
    expect(bad[0]?.error).toContain('seeding')
    expect(result.stderr).toContain('[42/42]')
  })

  it('each run used its own persona: the base commit’s in every base run, the working tree’s in every change run', () => {
    const chat = report.runs.filter((r) => r.ok && report.scenarios.find((s) => s.id === r.scenario)?.preset === 'chat')
    expect(chat.length).toBeGreaterThanOrEqual(30)
    for (const run of chat) expect(run.transcript?.system.includes(MARK), `${run.scenario} · ${run.version}`).toBe(run.version === 'base')
    expect(report.versions.base.source).toContain(baseCommit.slice(0, 12))
    expect(report.versions.change.source).toBe('working tree')
    expect(report.versions.base.fingerprint).not.toBe(report.versions.change.fingerprint)
  })

  it('the A/B order is the seed’s, the HTML shows every scenario side by side, and the markdown names the failure', () => {
    expect(report.sides).toEqual(
      assignSides(
        report.scenarios.map((s) => s.id),
        SEED,
      ),
    )
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8')
    expect(html.match(/<section id=/g)).toHaveLength(21)
    // It opens with the persona change it judges: the base's appended line, removed on the change side (issue 22).
    const diff = html.slice(html.indexOf('<div id="persona-diff">'), html.indexOf('<section id='))
    expect(diff).toContain(`-${MARK}`)
    expect(diff).toContain('base/persona/chat.md')
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toContain('**失败**：seeding')
  })

  it('--judge with the demo model records its (canned) scores; the same seed gives the same sides', async () => {
    const out = join(dir, 'judged')
    const judged = await ab(['--base', baseCommit, '--offline', '--seed', String(SEED), '--only', '08-old-memory', '--judge', '--out', out])
    expect(judged.status, judged.stderr).toBe(0)
    const small = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(small.sides['08-old-memory']).toEqual(report.sides['08-old-memory'])
    expect(small.judgements).toMatchObject([{ scenario: '08-old-memory', ok: true, scores: { A: { in_character: 3 }, B: { in_character: 3 } } }])
  })

  it('cyrene volume new --ab-report records the report with the volume', () => {
    const home = join(dir, 'home')
    mkdirSync(home, { recursive: true })
    const cyrene = (args: string[]) =>
      spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), ...args], {
        cwd: home,
        env: { ...withLocalBin(), DSH_HOME: home },
        encoding: 'utf8',
      })
    expect(cyrene(['volume', 'complete']).status).toBe(0)
    const opened = cyrene([
      'volume',
      'new',
      '--reason',
      '人格修订',
      '--confirm',
      'new-volume',
      '--ab-report',
      join(dir, 'out', 'report.md'),
      '--verdict',
      'keep',
      '--json',
    ])
    expect(opened.status, opened.stderr).toBe(0)
    expect(JSON.parse(opened.stdout).ab).toMatchObject({ verdict: 'keep', change_fingerprint: report.versions.change.fingerprint })
  })

  it('bad options are refused with the usage and exit 2, nothing built', async () => {
    for (const [args, says] of [
      [['--offline'], '--base <git ref> is required'],
      [['--base', 'no-such-ref-anywhere', '--offline', '--only', '02-grief', '--out', join(dir, 'never')], 'no such commit'],
      [['--base', 'HEAD', '--offline', '--only', '77-missing'], 'no scenario with the id 77-missing'],
      [['--base', 'HEAD', '--offline', '--model', 'deepseek/chat'], '--offline and --model exclude each other'],
      [['--base', 'HEAD', '--seed', 'abc'], '--seed must be a whole number'],
    ] as const) {
      const refused = await ab([...args])
      expect(refused.status, says).toBe(2)
      expect(refused.stderr).toContain(says)
    }
  })
})

import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parse, stringify } from 'yaml'
import { packInto, REPO_ROOT, runChecked } from '../scripts/dsh-web.ts'
import { ensureDsh } from '../scripts/ensure-dsh.ts'
import { judgePrompt, parseJudgement } from './judge.ts'
import { assignSides, randomSeed, type Version } from './order.ts'
import { personaDiff } from './persona-diff.ts'
import { renderHtml, renderMarkdown, type Judgement, type Report, type RunResult } from './report.ts'
import { PROVIDER_FILES, runScenario } from './run-scenario.ts'
import { loadScenarios, ScenarioError, type Scenario } from './scenario.ts'
import { buildVersion, installVersion, resolveRef, VersionError, type BuiltVersion } from './versions.ts'

const USAGE = `usage: npm run persona:ab -- --base <git ref> [--offline | --model <provider/model>] [options]

Runs every scenario in persona-ab/scenarios/ on two versions of her persona in the real
dsh web: "base" takes persona/ and philosophy/ from <git ref>, "change" is the working tree
(everything other than persona/ and philosophy/ is the working tree's on both sides).
Writes report.html (side by side, A/B in a random order, revealed at the end), report.md
and report.json.

  --base REF         the git ref the old persona comes from (required), e.g. HEAD or main~1
  --offline          use the scripted demo model (no key, no cost; replies are canned)
  --model P/M        the provider/model to use (default: the one configured in your DSH home)
  --dsh-home DIR     the DSH home whose provider settings are copied (default $DSH_HOME, else ~/.dsh)
  --only IDS         only these scenario ids (comma-separated)
  --scenarios DIR    another folder of scenario files (default persona-ab/scenarios/)
  --seed N           the A/B order's seed (default random; the report records it)
  --judge            the same model scores both replies of each scenario on a short rubric
  --out DIR          where the report goes (default .persona-ab/<time>/ in this repository)
  --concurrency N    scenarios run at once (default 2)
  --turn-timeout S   seconds one turn may take (default 180)
  --keep             keep the throwaway homes (they hold copies of your credentials)`

class UsageError extends Error {}

interface Options {
  base: string
  offline: boolean
  model?: string
  dshHome: string
  only: string[]
  scenarios: string
  seed: number
  judge: boolean
  out: string
  concurrency: number
  turnTimeoutMs: number
  keep: boolean
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name} must be a whole number ≥ 1, got ${JSON.stringify(value)}`)
  return Number(value)
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, now: Date): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      base: { type: 'string' },
      offline: { type: 'boolean', default: false },
      model: { type: 'string' },
      'dsh-home': { type: 'string' },
      only: { type: 'string' },
      scenarios: { type: 'string' },
      seed: { type: 'string' },
      judge: { type: 'boolean', default: false },
      out: { type: 'string' },
      concurrency: { type: 'string' },
      'turn-timeout': { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help === true) throw new UsageError('')
  if (values.base === undefined || values.base.trim() === '')
    throw new UsageError('--base <git ref> is required: the version to compare the working tree against')
  if (values.offline === true && values.model !== undefined)
    throw new UsageError('--offline and --model exclude each other: the offline run uses the demo model')
  if (values.model !== undefined && !/^[^/\s]+\/\S+$/.test(values.model))
    throw new UsageError(`--model must look like provider/model, got ${JSON.stringify(values.model)}`)
  const seed = values.seed === undefined ? randomSeed() : Number(values.seed)
  if (values.seed !== undefined && (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seed)))
    throw new UsageError(`--seed must be a whole number, got ${JSON.stringify(values.seed)}`)
  const cwd = env.INIT_CWD ?? process.cwd()
  const out = values.out === undefined ? join(REPO_ROOT, '.persona-ab', stamp(now)) : isAbsolute(values.out) ? values.out : resolve(cwd, values.out)
  const dshHome = values['dsh-home'] ?? (env.DSH_HOME !== undefined && env.DSH_HOME.trim() !== '' ? env.DSH_HOME : join(homedir(), '.dsh'))
  return {
    base: values.base,
    offline: values.offline === true,
    ...(values.model === undefined ? {} : { model: values.model }),
    dshHome,
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    scenarios: values.scenarios === undefined ? join(REPO_ROOT, 'persona-ab', 'scenarios') : resolve(cwd, values.scenarios),
    seed,
    judge: values.judge === true,
    out,
    concurrency: positiveInt(values.concurrency, '--concurrency', 2),
    turnTimeoutMs: positiveInt(values['turn-timeout'], '--turn-timeout', 180) * 1000,
    keep: values.keep === true,
  }
}

/** The person's provider settings in a version's home, plus the chosen model as one more patch row. */
function provideModel(home: string, o: Options): void {
  for (const file of PROVIDER_FILES) if (existsSync(join(o.dshHome, file))) copyFileSync(join(o.dshHome, file), join(home, file))
  if (o.model === undefined) return
  const patchFile = join(home, 'cordis.patch.yml')
  const current = existsSync(patchFile) ? (parse(readFileSync(patchFile, 'utf8')) as unknown) : []
  const rows = Array.isArray(current) ? current : current === null ? [] : undefined
  if (rows === undefined) throw new UsageError(`${join(o.dshHome, 'cordis.patch.yml')} is not a list of patch rows; pass --offline or fix that file`)
  const [provider, ...model] = (o.model as string).split('/')
  rows.push({ id: 'agent-default-model', config: { provider, model: model.join('/') } })
  writeFileSync(patchFile, stringify(rows))
}

/** Runs tasks with at most `limit` at once; each result in its task's place. */
async function pool<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      results[i] = await run(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

const say = (line: string): void => {
  process.stderr.write(line + '\n')
}

async function judgeAll(o: Options, scenarios: Scenario[], report: Report, changeHome: string, work: string): Promise<Judgement[]> {
  return await pool(scenarios, o.concurrency, async (s) => {
    const sides = report.sides[s.id] as { A: Version; B: Version }
    const find = (v: Version) => report.runs.find((r) => r.scenario === s.id && r.version === v)
    const prompt = judgePrompt(s, find(sides.A), find(sides.B))
    const judgeScenario: Scenario = { ...s, id: `judge-${s.id}`, commands: [], anchors: {}, memories: [], files: {}, turns: [prompt] }
    delete judgeScenario.nickname
    const run = await runScenario({
      scenario: judgeScenario,
      preset: 'standard',
      version: 'change',
      versionHome: changeHome,
      runDir: join(work, 'judge', s.id),
      turnTimeoutMs: o.turnTimeoutMs,
    })
    const judgement = run.ok
      ? parseJudgement(s.id, run.transcript?.turns[0]?.reply ?? '')
      : { scenario: s.id, ok: false, error: run.error ?? 'the judge run failed' }
    say(`judge ${s.id}: ${judgement.ok ? 'scored' : `failed — ${judgement.error}`}`)
    return judgement
  })
}

export async function runAb(o: Options): Promise<{ report: Report; files: string[] }> {
  const scenarios = loadScenarios(o.scenarios, o.only)
  resolveRef(REPO_ROOT, o.base)
  say(`persona:ab: ${scenarios.length} scenarios × 2 versions; compiling and building both versions…`)
  ensureDsh(say)
  runChecked('npm', ['run', '--silent', 'compile'], { cwd: REPO_ROOT })
  mkdirSync(o.out, { recursive: true })
  const work = join(o.out, 'work')
  rmSync(work, { recursive: true, force: true })
  const built: Record<Version, BuiltVersion> = {
    base: await buildVersion({ repo: REPO_ROOT, work, version: 'base', ref: o.base }),
    change: await buildVersion({ repo: REPO_ROOT, work, version: 'change' }),
  }
  const demo = o.offline ? packInto(join(REPO_ROOT, 'demo', 'model'), work) : undefined
  const homes: Record<Version, string> = { base: join(work, 'homes', 'base'), change: join(work, 'homes', 'change') }
  for (const v of ['base', 'change'] as const) {
    installVersion(built[v], homes[v], demo)
    if (!o.offline) provideModel(homes[v], o)
    say(`installed ${v}: ${built[v].source}, persona ${built[v].fingerprint.slice(0, 16)}…`)
  }
  const tasks = scenarios.flatMap((s) => (['base', 'change'] as const).map((version) => ({ s, version })))
  let done = 0
  const runs: RunResult[] = await pool(tasks, o.concurrency, async ({ s, version }) => {
    const began = Date.now()
    const run = await runScenario({
      scenario: s,
      version,
      versionHome: homes[version],
      runDir: join(work, 'runs', s.id, version),
      turnTimeoutMs: o.turnTimeoutMs,
    })
    done += 1
    const seconds = ((Date.now() - began) / 1000).toFixed(1)
    say(`[${done}/${tasks.length}] ${s.id} · ${version}: ${run.ok ? 'ok' : `FAILED — ${run.error?.split('\n')[0]}`} (${seconds} s)`)
    return run
  })
  const report: Report = {
    createdAt: new Date().toISOString(),
    seed: o.seed,
    model: o.offline ? 'cyrene-demo/demo (the scripted offline demo model)' : (o.model ?? `the default model configured in ${o.dshHome}`),
    ...(o.judge ? { judge: 'the same model, rubric in persona-ab/judge.ts' } : {}),
    versions: {
      base: { source: built.base.source, fingerprint: built.base.fingerprint },
      change: { source: built.change.source, fingerprint: built.change.fingerprint },
    },
    scenarios,
    sides: assignSides(
      scenarios.map((s) => s.id),
      o.seed,
    ),
    runs,
    judgements: [],
    personaDiff: personaDiff(built.base.dir, built.change.dir),
  }
  if (o.judge) report.judgements = await judgeAll(o, scenarios, report, homes.change, work)
  const files = [join(o.out, 'report.html'), join(o.out, 'report.md'), join(o.out, 'report.json')]
  writeFileSync(files[0] as string, renderHtml(report))
  writeFileSync(files[1] as string, renderMarkdown(report))
  writeFileSync(files[2] as string, JSON.stringify(report, null, 2) + '\n')
  // The homes hold copies of the person's credentials: gone unless asked to keep them.
  if (!o.keep) rmSync(work, { recursive: true, force: true })
  return { report, files }
}

async function main(argv: string[]): Promise<number> {
  let options: Options
  try {
    options = parseOptions(argv, process.env, new Date())
  } catch (error) {
    const message = (error as Error).message
    process.stderr.write(message === '' ? `${USAGE}\n` : `persona:ab: ${message}\n${USAGE}\n`)
    return message === '' ? 0 : 2
  }
  try {
    const { report, files } = await runAb(options)
    const failed = report.runs.filter((r) => !r.ok).length
    say(
      `persona:ab: ${report.runs.length - failed} of ${report.runs.length} runs completed${failed > 0 ? `, ${failed} failed (see the report)` : ''}; seed ${report.seed}`,
    )
    for (const f of files) process.stdout.write(f + '\n')
    say(`Open ${files[0]}, then, if you keep the change: cyrene volume new --reason "…" --confirm new-volume --ab-report ${files[1]} --verdict keep`)
    return failed > 0 ? 1 : 0
  } catch (error) {
    const known = error instanceof ScenarioError || error instanceof VersionError || error instanceof UsageError
    process.stderr.write(`persona:ab: ${(error as Error).message}\n`)
    return known ? 2 : 1
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2))

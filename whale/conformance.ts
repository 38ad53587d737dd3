import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describeMismatch, maskAt, parseJsonLines, PROSE, SAVED_EXTRA, sameFieldList, withoutPaths } from './conformance-compare.ts'
import { isRecord, jsonEqual, parseJson, type JsonRecord } from './json.ts'
import { locate } from './paths.ts'
import { WhaleError } from './said.ts'

/**
 * Runs a folder of cases in the whale-sample manifest format ("whale-golden/1")
 * against a command line. The command line is a parameter, so the same
 * runner drives `cyrene whale` in-process or a spawned binary.
 */
export interface ExecResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `whale <argv…>` with exactly `env` in the working directory `cwd`. */
export type WhaleExec = (argv: string[], env: Record<string, string>, cwd: string) => Promise<ExecResult>

interface CaseResult {
  id: string
  op: string
  ok: boolean
  failures: string[]
}

export interface ConformanceReport {
  format: string
  total: number
  passed: number
  failed: number
  cases: CaseResult[]
}

export interface ConformanceOptions {
  /** Run only these case ids. */
  only?: readonly string[]
  /**
   * The `source` name written into sink lines. The sample was recorded with
   * the reference CLI, whose name is `memory.mjs`.
   */
  sinkSource?: string
}

interface Case {
  id: string
  op: string
  inputs: JsonRecord
  env: Record<string, string>
  expected: JsonRecord
}

export class ManifestError extends WhaleError {}

export function readManifest(dir: string): Case[] {
  const file = path.join(dir, 'manifest.json')
  if (!existsSync(file)) throw new ManifestError(`no manifest.json in ${dir}`, 'manifest.missing', { dir })
  const parsed = parseJson(readFileSync(file, 'utf8'))
  if (!parsed.ok || !isRecord(parsed.value) || !Array.isArray(parsed.value.cases)) {
    throw new ManifestError(`${file} is not a manifest: expected {"format": "whale-golden/1", "cases": [...]}`, 'manifest.bad', { file })
  }
  return parsed.value.cases.filter(isRecord).map((c) => ({
    id: String(c.id),
    op: String(c.op),
    inputs: isRecord(c.inputs) ? c.inputs : {},
    env: Object.fromEntries(Object.entries(isRecord(c.env) ? c.env : {}).map(([k, v]) => [k, String(v)])),
    expected: isRecord(c.expected) ? c.expected : {},
  }))
}

export async function runConformance(dir: string, exec: WhaleExec, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const cases = readManifest(dir).filter((c) => !options.only || options.only.includes(c.id))
  const results: CaseResult[] = []
  for (const c of cases) {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'whale-conformance-'))
    try {
      cpSync(dir, scratch, { recursive: true })
      const failures: string[] = []
      const check = new Checker(scratch, failures)
      const run: CaseRun = { c, exec, scratch, check, sinkSource: options.sinkSource ?? 'memory.mjs' }
      const handler = handlers[c.op]
      if (handler === undefined) failures.push(`unknown op "${c.op}"`)
      else
        await handler(run).catch((error: unknown) => {
          failures.push(`runner error: ${(error as Error).message}`)
        })
      results.push({ id: c.id, op: c.op, ok: failures.length === 0, failures })
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
  const passed = results.filter((r) => r.ok).length
  return { format: 'whale-golden/1', total: results.length, passed, failed: results.length - passed, cases: results }
}

interface CaseRun {
  c: Case
  exec: WhaleExec
  scratch: string
  check: Checker
  sinkSource: string
}

class Checker {
  readonly scratch: string
  readonly failures: string[]
  constructor(scratch: string, failures: string[]) {
    this.scratch = scratch
    this.failures = failures
  }

  file(rel: string): string {
    return path.resolve(this.scratch, rel)
  }

  text(rel: string): string | null {
    const f = this.file(rel)
    return existsSync(f) ? readFileSync(f, 'utf8') : null
  }

  json(rel: string): unknown {
    const t = this.text(rel)
    if (t === null) return undefined
    const parsed = parseJson(t)
    return parsed.ok ? parsed.value : undefined
  }

  equal(label: string, actual: unknown, expected: unknown): void {
    if (!jsonEqual(actual, expected)) this.failures.push(describeMismatch(label, actual, expected))
  }

  same(label: string, actual: string | null, expected: string | null): void {
    if (actual !== expected) this.failures.push(describeMismatch(label, actual, expected))
  }

  fail(message: string): void {
    this.failures.push(message)
  }
}

function stdoutJson(label: string, result: ExecResult, check: Checker): JsonRecord | unknown[] | null {
  const parsed = parseJson(result.stdout)
  if (!parsed.ok || (!isRecord(parsed.value) && !Array.isArray(parsed.value))) {
    check.fail(
      `${label}: exit ${result.code}, stdout is not JSON (${result.stdout.slice(0, 200)}${result.stderr ? ` / stderr: ${result.stderr.slice(0, 200)}` : ''})`,
    )
    return null
  }
  return parsed.value as JsonRecord | unknown[]
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

function placesFor(run: CaseRun) {
  return locate(run.c.env, os.homedir(), (f) => existsSync(path.join(run.scratch, f)))
}

type Handler = (run: CaseRun) => Promise<void>

const handlers: Record<string, Handler> = {
  async render(run) {
    const { c, exec, scratch, check } = run
    const config = str(c.inputs.config)
    const argv = ['render', ...(config ? ['--config', config] : []), '--model', str(c.inputs.model), '--cwd', str(c.inputs.cwd)]
    if (c.inputs.session_capture === true) argv.push('--capture')
    const result = await exec([...argv, '--json'], c.env, scratch)
    if (result.code !== 0) check.fail(`render exited ${result.code}: ${result.stderr}`)
    const out = stdoutJson('render', result, check)
    if (!isRecord(out)) return
    for (const key of ['prefix', 'thinking', 'suffix'] as const) {
      if (typeof c.expected[key] === 'string') check.same(key, str(out[key]), check.text(str(c.expected[key])))
    }
    if (typeof c.expected.measure === 'string') check.equal('measure', out.measure, check.json(str(c.expected.measure)))
    if (typeof c.expected.capture_active === 'boolean') check.equal('captureActive', out.captureActive, c.expected.capture_active)
    if (typeof c.expected.inbox_view === 'string') {
      const view = await exec(['inbox', 'list', '--json', ...(config ? ['--config', config] : [])], c.env, scratch)
      check.equal('inbox view', stdoutJson('inbox list', view, check), check.json(str(c.expected.inbox_view)))
    }
  },

  async 'preset-apply'(run) {
    const { c, exec, scratch, check } = run
    const id = str(c.inputs.preset_id)
    const where = placesFor(run)
    const configRel = str(c.inputs.config) || where.configFile
    if (typeof c.expected.normalized_preset === 'string') {
      const wanted = check.json(str(c.expected.normalized_preset))
      const shown = await exec(['presets', 'show', id, '--json'], c.env, scratch)
      if (wanted === null) {
        if (shown.code === 0) check.fail('presets show accepted a file the sample says is not a preset')
      } else {
        check.equal('normalized preset', stdoutJson('presets show', shown, check), wanted)
      }
    }
    const applied = await exec(['presets', 'apply', id, '--json'], c.env, scratch)
    const out = stdoutJson('presets apply', applied, check)
    const expected = check.json(str(c.expected.result))
    if (isRecord(out) && isRecord(expected)) {
      check.equal('result.ok', out.ok, expected.ok)
      check.equal('exit code', applied.code === 0, expected.ok === true)
      if ('autosave_written' in expected) check.equal('result.autosave_written', out.autosaveWritten, expected.autosave_written)
      if (typeof expected.error === 'string' && !str(out.error)) check.fail('result: the refusal carries no error message')
    }
    const after = str(c.expected.config_after)
    if (after) {
      if (isRecord(expected) && expected.ok === false) check.same('config after a refusal', check.text(configRel), check.text(after))
      else check.equal('config after', check.json(configRel), check.json(after))
    }
    const autosaveRel = path.join(where.presetsDir, 'autosave.json')
    if (typeof c.expected.autosave_preset === 'string') {
      check.equal(
        'autosave preset',
        withoutPaths(check.json(autosaveRel), PROSE.autosave),
        withoutPaths(check.json(str(c.expected.autosave_preset)), PROSE.autosave),
      )
    } else if (existsSync(check.file(autosaveRel))) {
      check.fail('an autosave preset was written though the sample expects none')
    }
  },

  async 'tavern-import'(run) {
    const { c, exec, scratch, check } = run
    // a home may hold presets already (a card imported over one); a refusal must leave them all as they were
    const presetsDir = path.join(scratch, placesFor(run).presetsDir)
    const presetsBefore = folderTexts(presetsDir)
    const result = await exec(['presets', 'import', str(c.inputs.card), '--json'], c.env, scratch)
    const out = stdoutJson('presets import', result, check)
    if (!isRecord(out)) return
    const expected = check.json(str(c.expected.result))
    if (isRecord(expected)) {
      check.equal('result.ok', out.ok, expected.ok)
      check.equal('exit code', result.code === 0, expected.ok === true)
      check.equal('result.detected', out.detected, expected.detected)
      if ('saved_id' in expected) check.equal('result.saved_id', out.savedId, expected.saved_id)
      if ('saved_file' in expected) check.equal('result.saved_file', out.savedFile, expected.saved_file)
      if (typeof expected.error === 'string' && !str(out.error)) check.fail('result: the refusal carries no error message')
      if (expected.ok === false) check.equal('presets folder after a refused import', folderTexts(presetsDir), presetsBefore)
    }
    compareAfterFiles(run)
    if (typeof c.expected.import === 'string') compareImport(check, 'import', out, check.json(str(c.expected.import)))
    if (typeof c.expected.saved_preset === 'string') {
      check.equal(
        'saved preset',
        withoutPaths(check.json(str(out.savedFile)), [...PROSE.preset, ...SAVED_EXTRA]),
        withoutPaths(check.json(str(c.expected.saved_preset)), [...PROSE.preset, ...SAVED_EXTRA]),
      )
    }
  },

  async 'tavern-export'(run) {
    const { c, exec, scratch, check } = run
    const id = str(c.inputs.preset_id)
    if (typeof c.expected.loaded_preset === 'string') {
      const shown = await exec(['presets', 'show', id, '--json'], c.env, scratch)
      check.equal('loaded preset', stdoutJson('presets show', shown, check), check.json(str(c.expected.loaded_preset)))
    }
    const cardRel = 'exported-card.json'
    const exported = await exec(['presets', 'export', id, cardRel, '--tavern'], c.env, scratch)
    if (exported.code !== 0) check.fail(`presets export exited ${exported.code}: ${exported.stderr}`)
    if (typeof c.expected.card === 'string') {
      check.equal('card', withoutPaths(check.json(cardRel), PROSE.card), withoutPaths(check.json(str(c.expected.card)), PROSE.card))
    }
    if (typeof c.expected.reimport === 'string') {
      const again = await exec(['presets', 'import', cardRel, '--json', '--dry-run'], c.env, scratch)
      const out = stdoutJson('presets import (dry run)', again, check)
      if (isRecord(out)) compareImport(check, 'reimport', out, check.json(str(c.expected.reimport)))
    }
    if (typeof c.expected.reimport_result === 'string') {
      // the exported card imported for real into the same home (spec §4.6: a lossless round trip)
      const saved = await exec(['presets', 'import', cardRel, '--json'], c.env, scratch)
      const out = stdoutJson('presets import (same home)', saved, check)
      const expected = check.json(str(c.expected.reimport_result))
      if (isRecord(out) && isRecord(expected)) {
        check.equal('reimport_result.ok', out.ok, expected.ok)
        check.equal('reimport exit code', saved.code === 0, expected.ok === true)
        if ('saved_id' in expected) check.equal('reimport_result.saved_id', out.savedId, expected.saved_id)
        if ('saved_file' in expected) check.equal('reimport_result.saved_file', out.savedFile, expected.saved_file)
      }
    }
    compareAfterFiles(run)
  },

  async 'sink-confirm'(run) {
    const { c, exec, scratch, check } = run
    const config = str(c.inputs.config)
    const inbox = str(c.inputs.inbox)
    const before = check.text(inbox) ?? ''
    const indices = (Array.isArray(c.inputs.confirm_indices) ? c.inputs.confirm_indices : []).map(String)
    const result = await exec(['inbox', 'confirm', ...indices, '--json', '--source', run.sinkSource, ...(config ? ['--config', config] : [])], c.env, scratch)
    const out = stdoutJson('inbox confirm', result, check)
    if (typeof c.expected.report === 'string') check.equal('report', out, check.json(str(c.expected.report)))
    const after = check.text(inbox) ?? ''
    if (!after.startsWith(before)) check.fail('the inbox was rewritten instead of appended to')
    if (typeof c.expected.appended_inbox_lines === 'string') {
      const appended = (parseJsonLines(after.slice(before.length)) ?? []).map(maskAt)
      check.equal('appended inbox lines', appended, check.json(str(c.expected.appended_inbox_lines)))
    }
    compareAfterFiles(run)
  },
}

/**
 * `after/<path>` expectations: the file at `cases/<id>/<path>` after the run,
 * byte-exact; the sink log compares by value with real timestamps masked.
 */
function compareAfterFiles(run: CaseRun): void {
  const { c, check } = run
  const caseDir = path.join('cases', c.id)
  for (const [key, value] of Object.entries(c.expected)) {
    if (!key.startsWith('after/') || typeof value !== 'string') continue
    const actualRel = path.join(caseDir, key.slice('after/'.length))
    if (path.basename(key) === 'sink-log.jsonl') {
      check.equal(key, (parseJsonLines(check.text(actualRel) ?? '') ?? []).map(maskAt), (parseJsonLines(check.text(value) ?? '') ?? []).map(maskAt))
    } else {
      check.same(key, check.text(actualRel), check.text(value))
    }
  }
}

/** Every file of a folder (not recursive) with its text; an absent folder is empty. */
function folderTexts(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {}
  return Object.fromEntries(
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  )
}

function compareImport(check: Checker, label: string, out: JsonRecord, expected: unknown): void {
  if (!isRecord(expected)) return
  check.equal(`${label}.preset`, withoutPaths(out.preset, PROSE.preset), withoutPaths(expected.preset, PROSE.preset))
  // A mapped field may carry the reference's own words after it ("extensions.whale_persona → …"): compared by the field.
  if (!sameFieldList(out.mapped, expected.mapped)) check.fail(describeMismatch(`${label}.mapped`, out.mapped, expected.mapped))
  check.equal(`${label}.unmapped`, out.unmapped, expected.unmapped)
}

import { closeSync, existsSync, fstatSync, readSync } from 'node:fs'
import { openRegularSync } from '../durable/read-regular.ts'
import { t, type Lang } from '../i18n/index.ts'
import {
  lastLedgerRecords,
  loadReflexText,
  loadRenderInput,
  locationsFor,
  parseReflexRules,
  reflexLedgerFile,
  reflexProblems,
  renderSegments,
  resolveIn,
} from '../whale/index.ts'
import { compareBase, drifted, snapshotBases, type BaseCheck } from './base-drift.ts'
import type { DoctorIO, DoctorLine } from '../doctor/index.ts'
import { packagePath } from './package-root.ts'

/** The doctor's lines on whale-persona (config, reflex rules, the row) and on the presets' base snapshots. */

/**
 * The running DSH's built-in presets by id → their composition file, or why
 * they could not be found. The chat asks DSH's roster; the command line looks
 * for the DSH this package is installed with.
 */
export type BuiltinPresets = { found: Map<string, string>; dshVersion?: string | undefined } | { missing: string }

/**
 * The presets were built on snapshots of DSH's built-in presets
 * (`modes/base/`, shipped): when the DSH running now has other capability
 * rows, a Cyrene preset lacks what its base gained (CONTRACT#base-drift).
 */
export function baseDriftLine(builtins: BuiltinPresets, lang: Lang, snapshotsDir = packagePath('modes', 'base')): DoctorLine {
  const check = t('doctor.check.base', lang)
  const bases = snapshotBases(snapshotsDir)
  if (bases.length === 0) return { area: 'presets', check, status: 'warn', detail: t('doctor.base.noSnapshots', lang, { dir: snapshotsDir }) }
  if ('missing' in builtins) return { area: 'presets', check, status: 'missing', detail: t('doctor.base.notCompared', lang, { why: builtins.missing }) }
  const checks: BaseCheck[] = bases.map((base) => {
    const file = builtins.found.get(base)
    return file === undefined ? { base, problem: t('doctor.base.noBuiltin', lang, { base }) } : compareBase(snapshotsDir, base, file)
  })
  const off = checks.filter(drifted)
  const dsh = builtins.dshVersion === undefined ? 'DSH' : `DSH ${builtins.dshVersion}`
  const more = checks.map((c) =>
    'problem' in c
      ? `${c.base}: ${c.problem}`
      : `${c.base}: ${t('doctor.base.snapshotOf', lang, { version: c.snapshotVersion, file: c.file })}${t('doctor.colon', lang)}${
          drifted(c)
            ? [
                rowList(t('doctor.base.newRows', lang), c.added),
                rowList(t('doctor.base.goneRows', lang), c.removed),
                rowList(t('doctor.base.changedRows', lang), c.changed),
              ]
                .filter((x) => x !== '')
                .join('; ')
            : t('doctor.base.sameRows', lang)
        }`,
  )
  if (off.length === 0)
    return {
      area: 'presets',
      check,
      status: 'ok',
      detail: t('doctor.base.same', lang, { dsh, bases: bases.join(', ') }),
      summary: t('doctor.base.summary', lang, { dsh }),
      more,
    }
  const what = off.map((c) =>
    'problem' in c
      ? `${c.base} (${c.problem})`
      : `${c.base} (${t('doctor.base.counts', lang, { added: c.added.length, removed: c.removed.length, changed: c.changed.length })})`,
  )
  return { area: 'presets', check, status: 'warn', detail: t('doctor.base.drift', lang, { dsh, what: what.join(', ') }), more }
}

function rowList(label: string, ids: string[]): string {
  return ids.length === 0 ? '' : `${label} ${ids.join(', ')}`
}

/** The whale-persona config: where it is and how much of it is injected. */
export function whaleLines(io: DoctorIO, lang: Lang, ledgerError?: string): DoctorLine[] {
  const ctx = { env: io.env, cwd: io.cwd }
  const where = locationsFor(ctx)
  const segments = renderSegments(loadRenderInput(ctx, {}))
  const { total, budget } = segments.measure
  const reflex = reflexLines(io, lang, ledgerError)
  const check = 'whale-persona'
  if (!existsSync(where.configFile)) {
    const detail = t('doctor.whale.noConfig', lang, { file: where.configFile })
    return [{ area: 'whale', check, status: 'ok', detail, summary: t('doctor.whale.noConfigSummary', lang) }, ...reflex]
  }
  const budgetText = budget.enabled && budget.max > 0 ? t(budget.over ? 'doctor.whale.over' : 'doctor.whale.budget', lang, { max: budget.max }) : ''
  const detail = `${t('doctor.whale.config', lang, { file: where.configFile, n: total })}${budgetText}`
  return [{ area: 'whale', check, status: budget.over ? 'warn' : 'ok', detail, summary: t('doctor.whale.summary', lang, { n: total }) }, ...reflex]
}

/** How many of the newest ledger lines the doctor shows. */
const LAST_HITS = 3
/** The ledger only grows; its newest lines are in this many bytes at its end. */
const LEDGER_TAIL_BYTES = 16 * 1024

/** The reflex rules (spec §8): how many apply, what is wrong with the file, the newest hits of the ledger. */
function reflexLines(io: DoctorIO, lang: Lang, ledgerError: string | undefined): DoctorLine[] {
  const check = 'reflex'
  const fsCtx = { env: io.env, cwd: io.cwd }
  const loaded = loadReflexText(fsCtx)
  const file = resolveIn(fsCtx, loaded.file)
  if (loaded.off) return [{ area: 'whale', check, status: 'ok', detail: t('doctor.reflex.off', lang, { file }) }]
  const lines: DoctorLine[] = []
  if (loaded.unreadable !== undefined)
    lines.push({ area: 'whale', check, status: 'warn', detail: t('doctor.reflex.unreadable', lang, { file, error: loaded.unreadable }) })
  else if (loaded.text === null) lines.push({ area: 'whale', check, status: 'ok', detail: t('doctor.reflex.none', lang, { file }) })
  else {
    const rules = parseReflexRules(loaded.text)
    const mode = !rules.enabled ? t('doctor.reflex.disabled', lang) : rules.dryRun ? t('doctor.reflex.dryRun', lang) : ''
    lines.push({ area: 'whale', check, status: 'ok', detail: t('doctor.reflex.rules', lang, { n: rules.rules.length, file, mode }) })
    for (const problem of reflexProblems(loaded.text)) lines.push({ area: 'whale', check, status: 'warn', detail: `${file}: ${problem}` })
  }
  if (ledgerError !== undefined) lines.push({ area: 'whale', check, status: 'warn', detail: t('doctor.reflex.ledger', lang, { error: ledgerError }) })
  const hits = lastLedgerRecords(readTail(reflexLedgerFile(file), LEDGER_TAIL_BYTES), LAST_HITS)
  if (hits.length > 0)
    lines.push({
      area: 'whale',
      check,
      status: 'ok',
      detail: t('doctor.reflex.hits', lang, {
        hits: hits.map((h) => `${h.at} ${h.id} (${h.tier}${h.dryRun ? ', dry run' : ''}) ${JSON.stringify(h.excerpt)}`).join('; '),
      }),
    })
  return lines
}

/** The last `bytes` of a file as text ('' when there is none); a first line cut in half is skipped by the reader. */
function readTail(file: string, bytes: number): string {
  let fd: number | undefined
  try {
    // Never waiting on a FIFO put under its name, and the size is the file's that is read.
    fd = openRegularSync(file, true)
    const size = fstatSync(fd).size
    const length = Math.min(size, bytes)
    const buffer = Buffer.alloc(length)
    readSync(fd, buffer, 0, length, size - length)
    return buffer.toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The whale row as `/cyrene doctor` sees it: its registrations that failed, if it is mounted. */
export interface WhaleRowState {
  readonly failures: readonly string[]
  readonly reflex: { readonly ledgerError: string | undefined }
}

export function whaleRowLine(whale: WhaleRowState | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.whaleRow', lang)
  if (whale === undefined) return { area: 'whale', check, status: 'missing', detail: t('doctor.whale.rowMissing', lang) }
  if (whale.failures.length > 0)
    return { area: 'whale', check, status: 'warn', detail: t('doctor.whale.rowFailures', lang, { failures: whale.failures.join('; ') }) }
  return { area: 'whale', check, status: 'ok', detail: t('doctor.whale.rowOk', lang) }
}

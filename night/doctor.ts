import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { t, type Lang } from '../i18n/index.ts'
import { LAYOUT, journalRel } from '../memory/paths.ts'
import { listPending } from '../memory/upkeep.ts'
import type { MemoryStore } from '../memory/index.ts'
import { messageOf, type DoctorLine } from '../doctor/index.ts'
import { newVolumeCommand } from './journal.ts'
import { readNightRecord } from './record.ts'
import { readRegistry, REGISTRY_FILE } from './registry.ts'
import type { DreamState } from './types.ts'

/** The night's doctor lines (areas `dream`, and `memory` for what it leaves the person to do): the running service's, and the files'. */

/** What the running night service reports (timers, last outcome, snapshot errors); `state` undefined = not mounted here. Chat only. */
export function doctorLines(state: DreamState | undefined, lang: Lang): DoctorLine[] {
  const check = t('doctor.check.night', lang)
  if (state === undefined) return [{ area: 'dream', check, status: 'warn', detail: t('doctor.night.notMounted', lang) }]
  const lines: DoctorLine[] = [
    state.enabled
      ? {
          area: 'dream',
          check,
          status: 'ok',
          detail: t('doctor.night.on', lang, { at: state.at, next: state.nextWakeAt ?? '—', tasks: state.tasks.length === 0 ? '—' : state.tasks.join(', ') }),
        }
      : { area: 'dream', check, status: 'ok', detail: t('doctor.night.off', lang) },
  ]
  if (state.lastOutcome !== undefined) lines.push({ area: 'dream', check, status: 'ok', detail: t('doctor.night.last', lang, { outcome: state.lastOutcome }) })
  if (state.lastError !== undefined) lines.push({ area: 'dream', check, status: 'warn', detail: t('doctor.night.lastError', lang, { error: state.lastError }) })
  if (state.registryProblem !== undefined) lines.push({ area: 'dream', check: t('doctor.check.registry', lang), status: 'warn', detail: state.registryProblem })
  if (state.snapshotError !== undefined)
    lines.push({
      area: 'backup',
      check: t('doctor.check.snapshots', lang),
      status: 'warn',
      detail: t('doctor.snapshots.dailyFailed', lang, { error: state.snapshotError }),
    })
  return lines
}

/** The night as the files record it: registry, last dream, a new-volume suggestion, tombstones (CONTRACT#night, CONTRACT#recheck, CONTRACT#volumes); both doctors. */
export async function recordLines(store: MemoryStore, lang: Lang): Promise<DoctorLine[]> {
  const registry = t('doctor.check.registry', lang)
  const lines: DoctorLine[] = []
  const reg = await readRegistry(store)
  const sessions = Object.values(reg.registry.sessions)
  if (reg.problem !== undefined)
    lines.push({ area: 'dream', check: registry, status: 'warn', detail: t('doctor.registry.problem', lang, { problem: reg.problem }) })
  else
    lines.push({
      area: 'dream',
      check: registry,
      status: 'ok',
      detail: t('doctor.registry.ok', lang, { n: sessions.length, on: sessions.filter((x) => x.enabled).length, file: `元/${REGISTRY_FILE}` }),
    })
  let aside: string[] = []
  try {
    aside = (await readdir(join(store.root, LAYOUT.meta))).filter((n) => n.startsWith(`${REGISTRY_FILE}.corrupt-`))
  } catch {
    /* no 元/ yet */
  }
  if (aside.length > 0)
    lines.push({
      area: 'dream',
      check: registry,
      status: 'warn',
      detail: t('doctor.registry.aside', lang, { file: `元/${aside.sort().at(-1)!}`, n: aside.length }),
    })
  const dream = t('doctor.check.dream', lang)
  const { record, problem } = await readNightRecord(store)
  const last = record.runs.at(-1)
  if (problem !== undefined) lines.push({ area: 'dream', check: dream, status: 'warn', detail: problem })
  if (last === undefined) lines.unshift({ area: 'dream', check: dream, status: 'missing', detail: t('doctor.dream.none', lang) })
  else {
    const outcome =
      last.outcome === 'journal' ? t('doctor.dream.journal', lang) : last.outcome === 'no-output' ? t('doctor.dream.noOutput', lang) : last.outcome
    const detail = t('doctor.dream.last', lang, { night: record.lastNight ?? '—', at: last.at, trigger: last.trigger, outcome, file: journalRel(last.night) })
    lines.unshift(
      last.outcome.startsWith('failed')
        ? { area: 'dream', check: dream, status: 'warn', detail: t('doctor.dream.failed', lang, { detail }) }
        : { area: 'dream', check: dream, status: 'ok', detail, summary: t('doctor.dream.summary', lang, { night: record.lastNight ?? last.night, outcome }) },
    )
  }
  if (record.suggestion !== undefined)
    lines.push({
      area: 'memory',
      check: t('doctor.check.newVolume', lang),
      status: 'warn',
      detail: t('doctor.volume.suggested', lang, {
        night: record.suggestion.night,
        reason: record.suggestion.reason,
        changed: record.suggestion.changed,
        command: newVolumeCommand(record.suggestion.reason),
      }),
    })
  try {
    const pending = await listPending(store)
    const tombs = pending.filter((x) => x.record.tombstoned_at !== undefined)
    const open = pending.filter((x) => x.record.tombstoned_at === undefined && x.record.promoted_id === undefined)
    lines.push({
      area: 'memory',
      check: '余页/待定',
      status: 'ok',
      detail: `${t('doctor.pending', lang, { n: open.length, month: record.lastMonthCheck ?? '—', tombs: tombs.length })}${tombs.length > 0 ? t('doctor.pending.untomb', lang, { id: tombs[0]!.id }) : ''}`,
    })
  } catch (error) {
    lines.push({ area: 'memory', check: '余页/待定', status: 'warn', detail: messageOf(error) })
  }
  return lines
}

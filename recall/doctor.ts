import type { DoctorLine } from '../doctor/index.ts'
import { t, type Lang } from '../i18n/index.ts'
import { recallSilenceText } from '../i18n/recall.ts'
import type { RecallLack } from './core/index.ts'
import type { RecallDoctorState } from './running.ts'

/** The doctor's recall line: the index's state, what it holds, where it runs, and why the latest search was silent. */
export function doctorLines({ index, error, silence }: RecallDoctorState, lang: Lang): DoctorLine[] {
  const check = t('doctor.check.recall', lang)
  if (error !== undefined) return [{ area: 'recall', check, status: 'warn', detail: t('doctor.recall.searchFailed', lang, { error }) }]
  switch (index.kind) {
    case 'off':
      return [{ area: 'recall', check, status: 'missing', detail: t('doctor.recall.off', lang) }]
    case 'building':
      return [{ area: 'recall', check, status: 'warn', detail: t('doctor.recall.building', lang) }]
    case 'failed':
      return [{ area: 'recall', check, status: 'fail', detail: t('doctor.recall.failed', lang, { error: index.detail }) }]
    case 'ready': {
      const silent = silence === undefined ? '' : t('doctor.recall.silent', lang, { why: recallSilenceText(silence, lang) })
      const c = index.counts
      const counts = { n: c.entries, anchors: c.anchors, dreams: c.dreams, rollups: c.rollups }
      const detail = t(index.where === 'in-process' ? 'doctor.recall.readyInProcess' : 'doctor.recall.ready', lang, counts) + silent
      const summary = t('doctor.recall.summary', lang, { n: c.entries })
      // Recall goes on without a folder it may not open; the ready line's "all can be found" would not hold.
      if (index.unreadable !== undefined && index.unreadable.length > 0) {
        const first = index.unreadable[0]!
        return [
          {
            area: 'recall',
            check,
            status: 'warn',
            detail: t('doctor.recall.unreadable', lang, { detail, n: index.unreadable.length, first, quoted: first.replace(/'/g, "'\\''") }),
          },
        ]
      }
      if (index.watch !== undefined) return [{ area: 'recall', check, status: 'warn', detail: t('doctor.recall.watch', lang, { detail, watch: index.watch }) }]
      // Recall without the dictionary finds no memory in the other language: the ready line's claim would not hold.
      if (index.lacks !== undefined && index.lacks.length > 0)
        return [
          {
            area: 'recall',
            check,
            status: 'warn',
            detail: t('doctor.recall.lacks', lang, {
              detail,
              lacks: index.lacks.map((lack) => t(LACK_KEYS[lack], lang)).join(t('doctor.recall.lacksJoin', lang)),
            }),
          },
        ]
      return [index.where === 'in-process' ? { area: 'recall', check, status: 'warn', detail } : { area: 'recall', check, status: 'ok', detail, summary }]
    }
  }
}

const LACK_KEYS: Record<RecallLack, 'doctor.recall.lacksTranslation' | 'doctor.recall.lacksWordKinds'> = {
  translation: 'doctor.recall.lacksTranslation',
  'word-kinds': 'doctor.recall.lacksWordKinds',
}

import { createHash } from 'node:crypto'
import { RefusedError } from './validate.ts'

/**
 * A persona A/B report attached to a new volume (CONTRACT#persona-ab: a persona
 * change goes through the 20-scenario A/B). The report files written by
 * `npm run persona:ab` carry one machine-readable line with the fingerprints
 * of both personas; the volume records that line's fingerprints, the file's
 * hash and the person's verdict.
 */
const REPORT_MARK = 'cyrene-persona-ab'
const VERDICTS = ['keep', 'revert'] as const
type Verdict = (typeof VERDICTS)[number]

export interface ReportMark {
  base: string
  change: string
  seed: number
  createdAt: string
}

export interface AbReview {
  report_sha256: string
  base_fingerprint: string
  change_fingerprint: string
  verdict: Verdict
}

/** The line a report file carries; readReportMark reads it back. */
export function reportMarkLine(mark: ReportMark): string {
  return `<!-- ${REPORT_MARK} ${JSON.stringify(mark)} -->`
}

/** The fingerprints a report was made for, or undefined when the text is no such report. */
export function readReportMark(text: string): ReportMark | undefined {
  const line = new RegExp(`<!-- ${REPORT_MARK} (\\{[^\\n]*?\\}) -->`).exec(text)
  if (line === null) return undefined
  try {
    const mark = JSON.parse(line[1] as string) as Partial<ReportMark>
    if (typeof mark.base !== 'string' || typeof mark.change !== 'string') return undefined
    return mark as ReportMark
  } catch {
    return undefined
  }
}

/**
 * The review to record for a report file's bytes, checked against the persona
 * the volume opens with: a report made for another persona is refused.
 */
export function abReviewOf(bytes: Buffer, verdict: string, currentFingerprint: string, file: string): AbReview {
  if (!VERDICTS.includes(verdict as Verdict))
    throw new RefusedError('bad-input', `--verdict must be keep or revert, got ${JSON.stringify(verdict)}`, {
      variant: 'verdict',
      got: JSON.stringify(verdict),
    })
  const mark = readReportMark(bytes.toString('utf8'))
  if (mark === undefined)
    throw new RefusedError('bad-input', `${file} is not a persona A/B report (report.html or report.md written by npm run persona:ab)`, {
      variant: 'ab-report',
      file,
    })
  if (mark.change !== currentFingerprint)
    throw new RefusedError(
      'ab-mismatch',
      `${file} was made for the persona ${mark.change.slice(0, 19)}…, but the persona now is ${currentFingerprint.slice(0, 19)}…: run npm run persona:ab again on the persona you are opening the volume with`,
      { file, made: mark.change.slice(0, 19), now: currentFingerprint.slice(0, 19) },
    )
  return {
    report_sha256: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    base_fingerprint: mark.base,
    change_fingerprint: mark.change,
    verdict: verdict as Verdict,
  }
}

import type { DoctorLine } from '../host/service.ts'

const MARK: Record<DoctorLine['status'], string> = { ok: '✓', warn: '!', fail: '✗', missing: '…' }

export function doctorReport(lines: DoctorLine[]): string {
  return ['昔涟 · 新卷 — doctor', ...lines.map((l) => `${MARK[l.status]} ${l.check}: ${l.detail}`)].join('\n')
}

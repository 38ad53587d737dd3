import { describe, expect, it } from 'vitest'
import type { GitSyncReport } from '../memory/git.ts'
import { gitReportText } from './report-text.ts'

const merged: GitSyncReport = {
  ok: true,
  message: '',
  remote: '/mnt/usb/cyrene.git',
  written: [],
  committed: true,
  merge: 'merged',
  changed: ['岁月涟漪/日档/2026/03/2026-03-01.md'],
  pushed: true,
  newConflicts: 0,
  edited: [{ path: '岁月涟漪/日档/2026/03/2026-03-01.md', how: 'merged' }],
  head: undefined,
}

describe('a git sync report names the files saved during the sync (decision 288)', () => {
  it('in both languages, with the file, and says nothing of it when there were none', () => {
    expect(gitReportText(merged, 'zh')).toContain('同步期间在这台机器上保存的 1 个文件已保留并一起送出（"岁月涟漪/日档/2026/03/2026-03-01.md"）')
    expect(gitReportText(merged, 'en')).toContain('1 file(s) saved here during the sync kept and sent ("岁月涟漪/日档/2026/03/2026-03-01.md")')
    expect(gitReportText({ ...merged, edited: [] }, 'en')).not.toContain('saved here')
  })
})

describe("a sync that waited for a tool call says so in the person's language", () => {
  it('names the wait in seconds, not the English of the error', () => {
    const report = { ok: false as const, message: 'a tool call of the model…', callRunning: 60_000 }
    expect(gitReportText(report, 'zh')).toContain('已经运行超过 60 秒')
    expect(gitReportText(report, 'en')).toContain('has run for over 60 s')
  })
})

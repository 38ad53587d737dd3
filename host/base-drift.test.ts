import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scratchDir } from '../tests/harness/scratch.ts'
import { compareBase } from './base-drift.ts'
import { baseDriftLine } from './doctor.ts'
import { doctorReport } from '../doctor/index.ts'
import { packagePath } from './package-root.ts'

/** A copy of the shipped standard snapshot and a composition written from its rows, which a test then edits. */
function fixture(edit: (yaml: string) => string) {
  const dir = scratchDir('drift')
  const snaps = join(dir, 'base')
  mkdirSync(snaps)
  copyFileSync(packagePath('modes', 'base', 'standard.plugins.json'), join(snaps, 'standard.plugins.json'))
  const rows = JSON.parse(readFileSync(join(snaps, 'standard.plugins.json'), 'utf8')).rows
  const file = join(dir, 'agent.cordis.yml')
  // JSON is YAML; `{"$js": …}` values stay as data on both sides.
  writeFileSync(file, edit(JSON.stringify(rows, null, 1)))
  return { snaps, file }
}

describe('base drift: the shipped snapshots against the running DSH (CONTRACT#base-drift)', () => {
  it('the same rows, in a different key order, are no drift', () => {
    const { snaps, file } = fixture((y) => y)
    expect(compareBase(snaps, 'standard', file)).toMatchObject({ added: [], removed: [], changed: [] })
    const line = baseDriftLine({ found: new Map([['standard', file]]), dshVersion: '9.9.9' }, 'en', snaps)
    expect(line).toMatchObject({ area: 'presets', status: 'ok', detail: 'the Cyrene presets stand on the same rows as DSH 9.9.9’s built-in standard' })
  })

  it('a new row, a row gone and a changed config are named, with what to do', () => {
    const { snaps, file } = fixture((y) => {
      const rows = JSON.parse(y)
      rows.push({ id: 'tool-new', name: '@deepseek-ai/dsh-tool-new' })
      const fs = rows.findIndex((r: { id: string }) => r.id === 'tool-fs')
      rows.splice(fs, 1)
      rows.find((r: { id: string }) => r.id === 'agent-instructions').config = { maxBytes: 1 }
      return JSON.stringify(rows)
    })
    expect(compareBase(snaps, 'standard', file)).toMatchObject({ added: ['tool-new'], removed: ['tool-fs'], changed: ['agent-instructions'] })
    const line = baseDriftLine({ found: new Map([['standard', file]]) }, 'en', snaps)
    expect(line.status).toBe('warn')
    expect(line.detail).toContain('standard (1 new, 1 gone, 1 changed)')
    expect(line.detail).toContain('npm run build -- --snapshot')
    expect(line.more?.[0]).toContain('new rows tool-new; rows gone tool-fs; rows changed agent-instructions')
  })

  it('a change inside a group member is found; a base the DSH lacks and an unreadable file are warnings, never a throw', () => {
    const { snaps, file } = fixture((y) => y.replace('"thresholdChars": 8192', '"thresholdChars": 4096'))
    expect(compareBase(snaps, 'standard', file)).toMatchObject({ changed: ['tool-result-pruner'] })
    expect(baseDriftLine({ found: new Map() }, 'en', snaps)).toMatchObject({ status: 'warn' })
    expect(baseDriftLine({ found: new Map([['standard', join(snaps, 'nope.yml')]]) }, 'en', snaps).detail).toContain('standard (')
    expect(baseDriftLine({ missing: 'no DSH here' }, 'en', snaps)).toEqual({
      area: 'presets',
      check: 'base presets',
      status: 'missing',
      detail: 'not compared: no DSH here',
    })
  })
  it('the details stay behind --verbose; without it one last line says they exist', () => {
    const { snaps, file } = fixture((y) => y)
    const line = baseDriftLine({ found: new Map([['standard', file]]) }, 'en', snaps)
    const plain = doctorReport([line], { lang: 'en' }).split('\n')
    expect(plain.at(-1)).toBe('(the details of each area: --verbose)')
    expect(plain.some((l) => l.includes('snapshot of DSH'))).toBe(false)
    const verbose = doctorReport([line], { verbose: true, lang: 'en' }).split('\n')
    expect(verbose.at(-1)).toBe(`        standard: snapshot of DSH 0.1.0-rc.8 vs ${file}: the same rows`)
    const zh = doctorReport([baseDriftLine({ found: new Map([['standard', file]]) }, 'zh', snaps)], { verbose: true, lang: 'zh' }).split('\n')
    expect(zh.at(-1)).toBe(`        standard: DSH 0.1.0-rc.8 的快照 对比 ${file}：相同`)
  })
})

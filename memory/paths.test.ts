import { describe, expect, it } from 'vitest'
import { dayFileRel, dateOfEntryFile, isMetaPath, pendingFileRel, resolveRoot, safeJoin, snapshotsDirOf, RootError } from './paths.ts'

describe('resolveRoot', () => {
  it('uses DSH_HOME, treats blank as unset, falls back to ~/.dsh', () => {
    expect(resolveRoot({ env: { DSH_HOME: '/x/h' } })).toBe('/x/h/cyrene-philia093-0')
    expect(resolveRoot({ env: { DSH_HOME: '   ' }, home: () => '/home/u' })).toBe('/home/u/.dsh/cyrene-philia093-0')
    expect(resolveRoot({ env: {}, home: () => '/home/u' })).toBe('/home/u/.dsh/cyrene-philia093-0')
  })
  it('rootDir overrides', () => {
    expect(resolveRoot({ rootDir: '/r/m', env: { DSH_HOME: '/x' } })).toBe('/r/m')
  })
  it('never falls back to the working directory', () => {
    expect(() => resolveRoot({ env: {}, home: () => '' })).toThrow(RootError)
    expect(() =>
      resolveRoot({
        env: {},
        home: () => {
          throw new Error('no home')
        },
      }),
    ).toThrow(/DSH_HOME/)
    expect(() => resolveRoot({ env: { DSH_HOME: 'relative/dir' } })).toThrow(/absolute/)
    expect(() => resolveRoot({ rootDir: 'rel' })).toThrow(/absolute/)
  })
  it('puts snapshots beside the root', () => {
    expect(snapshotsDirOf('/h/cyrene-philia093-0')).toBe('/h/cyrene-philia093-0-snapshots')
  })
})

describe('file paths', () => {
  it('maps dates to the layout and back', () => {
    expect(dayFileRel('2026-11-29')).toBe('岁月涟漪/日档/2026/11/2026-11-29.md')
    expect(pendingFileRel('2026-11-29')).toBe('余页/待定/2026-11-29.md')
    expect(dateOfEntryFile('岁月涟漪/日档/2026/11/2026-11-29.md')).toEqual({ date: '2026-11-29', area: 'day' })
    expect(dateOfEntryFile('岁月涟漪/日档/2026/12/2026-11-29.md')).toBeUndefined()
    expect(dateOfEntryFile('余页/待定/2026-02-30.md')).toBeUndefined()
    expect(() => dayFileRel('../../etc')).toThrow(RangeError)
  })
  it('refuses path tricks', () => {
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a\0b', '', 'C:\\x', '余页/../../x']) expect(() => safeJoin('/r', bad)).toThrow(RangeError)
    expect(safeJoin('/r', '余页/a.md')).toBe('/r/余页/a.md')
  })
  it('knows 元/ is the person-only area', () => {
    expect(isMetaPath('元/settings.json')).toBe(true)
    expect(isMetaPath('./元//x')).toBe(true)
    expect(isMetaPath('余页/元.md')).toBe(false)
  })
})

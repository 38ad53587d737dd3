import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './harness/host.ts'

/**
 * Issue 22: the settings page's own catalogue (client/i18n.js). Both languages
 * hold every key; a Chinese text carries no English word and an English text no
 * Chinese character (placeholders aside: they hold the person's data); every
 * key the page asks for exists; every code the routes answer has its words.
 */
const CLIENT = join(PROJECT_ROOT, 'client')
/** client/ is CommonJS for DSH web's module loader, in an ESM package: run the file as the bundle does. */
function loadCatalogue(): { zh: Record<string, string>; en: Record<string, string> } {
  const module = { exports: {} as Record<string, unknown> }
  runInNewContext(readFileSync(join(CLIENT, 'i18n.js'), 'utf8'), { module, exports: module.exports })
  return module.exports as { zh: Record<string, string>; en: Record<string, string> }
}
const { zh, en } = loadCatalogue()
const sources = readdirSync(CLIENT)
  .filter((f) => f.endsWith('.js'))
  .map((f) => readFileSync(join(CLIENT, f), 'utf8'))
  .join('\n')

/** Words a Chinese page may carry as they are: names of software and units. */
const ZH_ALLOWED = new Set(['DSH', 'MB'])
const withoutPlaceholders = (text: string) => text.replace(/\{\w+\}/g, '')

describe('the settings page catalogue (client/i18n.js)', () => {
  it('Chinese and English have the same keys, none empty', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
    for (const [key, text] of [...Object.entries(zh), ...Object.entries(en)]) expect(text.trim(), key).not.toBe('')
  })

  it('the same placeholders in both languages', () => {
    for (const key of Object.keys(zh)) {
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
      expect(names(zh[key] as string), key).toEqual(names(en[key] as string))
    }
  })

  it('no English word in a Chinese text, no Chinese character in an English one', () => {
    for (const [key, text] of Object.entries(zh)) {
      const words = (withoutPlaceholders(text).match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !ZH_ALLOWED.has(w))
      expect(words, `zh ${key}: ${text}`).toEqual([])
    }
    for (const [key, text] of Object.entries(en)) expect(withoutPlaceholders(text), `en ${key}`).not.toMatch(/\p{Script=Han}/u)
  })

  it('every literal key the page asks for is in the catalogue', () => {
    const asked = [...sources.matchAll(/\bt\(\s*'([^']+)'/g), ...sources.matchAll(/\btx\(\s*t,\s*'([^']+)'/g)].map((m) => m[1] as string)
    expect(asked.length).toBeGreaterThan(40)
    for (const key of asked) expect(Object.keys(zh), key).toContain(key)
  })

  it('every code the panel routes answer has its words', () => {
    const answers = readFileSync(join(PROJECT_ROOT, 'panel', 'answers.ts'), 'utf8')
    const union = /export type AnswerCode =([\s\S]*?)\n\n/.exec(answers)?.[1] ?? ''
    const codes = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1] as string)
    expect(codes.length).toBeGreaterThan(10)
    const worded = (code: string) =>
      code === 'dream-session-switched' ? ['answer.dream-session-on', 'answer.dream-session-off'] : [`answer.${code === 'unchanged' ? 'unchanged' : code}`]
    for (const code of codes) for (const key of worded(code)) expect(Object.keys(zh), code).toContain(key)
  })

  it('every kind of memory and every engine state has a label', () => {
    const entry = readFileSync(join(PROJECT_ROOT, 'memory', 'entry.ts'), 'utf8')
    const kinds = [...(/KNOWN_KINDS = \[([^\]]+)\]/.exec(entry)?.[1] ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1] as string)
    expect(kinds).toContain('note')
    for (const kind of kinds) expect(Object.keys(zh)).toContain(`kind.${kind}`)
    for (const state of ['ready', 'busy', 'failed', 'starting', 'building', 'off']) expect(Object.keys(zh)).toContain(`state.${state}`)
  })
})

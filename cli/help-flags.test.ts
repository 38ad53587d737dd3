import { describe, expect, it } from 'vitest'
import type { Command } from 'commander'
import { t, type Lang } from '../i18n/index.ts'
import { chineseLeft, englishSentences } from '../i18n/testing/language-rule.ts'
import { memoryIO } from './io.ts'
import { program } from './main.ts'
import type { CyreneCommand } from './command.ts'

/**
 * Issue 22, "help texts agree with the code": every command's `--help` lists
 * exactly the flags its parser takes. What the parser takes is asked of the
 * parser itself (commander's `parseOptions`, the one `cyrene` runs), flag by
 * flag, against every flag any command declares and one no command has; what
 * help lists is read from the rendered help text, its Options section and the
 * line that names the flags an action accepts but does not use.
 */
async function everyCommand(lang: Lang): Promise<CyreneCommand[]> {
  const root = await program({ ...memoryIO({}, '/'), lang })
  return commandsBelow(root)
}

function commandsBelow(root: CyreneCommand): CyreneCommand[] {
  const all: CyreneCommand[] = []
  const walk = (c: CyreneCommand): void => {
    all.push(c)
    for (const sub of c.commands) walk(sub as CyreneCommand)
  }
  walk(root)
  return all
}

/** What `cyrene … --help` prints for this command, the texts added after the options included. */
function helpOf(c: CyreneCommand): string {
  let text = ''
  c.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) })
  c.outputHelp()
  return text
}

function path(c: Command): string {
  return c.parent === null ? c.name() : `${path(c.parent)} ${c.name()}`
}

/** The long flags help shows: the term column of the Options section, and the "also accepted" line. */
function flagsInHelp(text: string, lang: Lang): string[] {
  const lines = text.split('\n')
  const title = t('cli.title.Options:', lang)
  const found: string[] = []
  const start = lines.findIndex((l) => l.trim() === title)
  if (start >= 0)
    for (const line of lines.slice(start + 1)) {
      if (!line.startsWith('  ')) break
      const term = line.trim().split(/\s{2,}/)[0]!
      for (const m of term.matchAll(/--[a-z][\w-]*/g)) found.push(m[0])
    }
  const [before, after] = t('cli.sharedUnused', lang, { flags: '\u0000' }).split('\u0000') as [string, string]
  for (const line of lines)
    if (line.startsWith(before) && line.endsWith(after)) for (const m of line.slice(before.length, line.length - after.length).split(' ')) found.push(m)
  return [...new Set(found)].sort()
}

/** Does this command's own parser take `flag`? (Its value, if it takes one, is `x`.) */
function accepts(command: CyreneCommand, flag: string): boolean {
  const { unknown } = command.parseOptions([flag, 'x'])
  return !unknown.includes(flag)
}

describe('every command’s help lists exactly the flags its parser takes (issue 22)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`in ${lang}`, async () => {
      const commands = await everyCommand(lang)
      const universe = new Set(['--no-such-flag', '--help'])
      for (const c of commands) for (const o of c.options) if (o.long !== undefined) universe.add(o.long)
      // The probe itself sets option values: each command is asked on a program of its own.
      const fresh = await everyCommand(lang)
      expect(fresh.length).toBeGreaterThan(40)
      const mismatches: Array<{ command: string; shown: string[]; taken: string[] }> = []
      for (const [i, c] of commands.entries()) {
        const shown = flagsInHelp(helpOf(c), lang)
        const taken = [...universe].filter((f) => f === '--help' || (f !== '--no-such-flag' && accepts(fresh[i]!, f))).sort()
        if (JSON.stringify(shown) !== JSON.stringify(taken)) mismatches.push({ command: path(c), shown, taken })
      }
      expect(mismatches).toEqual([])
    })
  }

  it('the probe tells a flag the parser takes from one it does not', async () => {
    const commands = await everyCommand('en')
    const write = commands.find((c) => path(c) === 'cyrene memory write')!
    expect(accepts(write, '--axis')).toBe(true)
    expect(accepts(write, '--no-such-flag')).toBe(false)
    expect(flagsInHelp(helpOf(write), 'en')).toContain('--axis')
    const del = commands.find((c) => path(c) === 'cyrene whale presets delete')!
    expect(accepts(del, '--tavern')).toBe(true)
    expect(flagsInHelp(helpOf(del), 'en')).toContain('--tavern')
  })

  for (const lang of ['zh', 'en'] as const) {
    it(`every command’s help is in ${lang} only`, async () => {
      const bad: Array<{ command: string; found: string[] | string }> = []
      for (const c of await everyCommand(lang)) {
        const text = helpOf(c)
        const found = lang === 'zh' ? englishSentences(text) : chineseLeft(text)
        if (found.length > 0) bad.push({ command: path(c), found })
      }
      expect(bad).toEqual([])
    })
  }
})

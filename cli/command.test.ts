import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Command } from 'commander'
import { main, program } from './main.ts'
import type { CliIO } from './io.ts'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cyrene-args-'))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

function io(): CliIO & { out: string; err: string } {
  const o: CliIO & { out: string; err: string } = {
    out: '',
    err: '',
    // The help layout in English, as these tests read it (cli/language.test.ts checks the Chinese one).
    env: { DSH_HOME: home, LANG: 'en_US.UTF-8' },
    cwd: home,
    readStdin: async () => '',
    stdout: (s) => {
      o.out += s
    },
    stderr: (s) => {
      o.err += s
    },
  }
  return o
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const i = io()
  const code = await main(argv, i)
  return { code, out: i.out, err: i.err }
}

/** Every command below `command`, as the words that name it (`['memory', 'write']`); `[]` is `cyrene` itself. */
function commandPaths(command: Command, words: string[] = []): string[][] {
  return [words, ...command.commands.flatMap((c) => commandPaths(c, [...words, c.name()]))]
}

describe('one option parsing for the whole command line (issue 8)', () => {
  it('every command and sub-command answers --help and -h with exit 0, and an unknown option with exit 2 and one line naming its --help', async () => {
    const paths = commandPaths(await program(io()))
    // The tree is read, not listed here, so a new command cannot miss this test; these prove the walk reached the leaves.
    for (const known of [
      ['memory', 'write'],
      ['memory', 'anchor'],
      ['whale', 'presets', 'export'],
      ['whale', 'inbox', 'confirm'],
      ['whale', 'reflex', 'check'],
      ['doctor'],
      ['restore'],
    ])
      expect(paths).toContainEqual(known)
    for (const words of paths) {
      const name = ['cyrene', ...words].join(' ')
      for (const flag of ['--help', '-h']) {
        const help = await run([...words, flag])
        expect(help.code, `${name} ${flag}`).toBe(0)
        expect(help.out, `${name} ${flag}`).toMatch(new RegExp(`^Usage: ${name} `))
        expect(help.err, `${name} ${flag}`).toBe('')
      }
      const bad = await run([...words, '--no-such-option'])
      expect(bad.code, name).toBe(2)
      expect(bad.out, name).toBe('')
      expect(bad.err, name).toMatch(/^[^\n]+\n$/)
      expect(bad.err, name).toContain("Unknown option '--no-such-option'")
      expect(bad.err, name).toContain(`Run \`${name} --help\``)
    }
    expect(readdirSync(home)).toEqual([])
  })

  it('a command that needs a sub-command prints its help without one and exits 2; an unknown one is refused with what to run', async () => {
    for (const words of [[], ['memory'], ['whale'], ['whale', 'presets'], ['whale', 'inbox'], ['whale', 'reflex']]) {
      const r = await run(words)
      expect(r.code, words.join(' ')).toBe(2)
      expect(r.out, words.join(' ')).toMatch(new RegExp(`^Usage: ${['cyrene', ...words].join(' ')} \\[options\\] \\[command\\]`))
    }
    expect(await run(['nosuch'])).toEqual({ code: 2, out: '', err: 'cyrene: unknown command "nosuch". Run `cyrene --help` for the list.\n' })
    expect(await run(['memory', 'frob'])).toEqual({
      code: 2,
      out: '',
      err: 'cyrene memory: unknown sub-command "frob". Run `cyrene memory --help` for the list.\n',
    })
    for (const args of [['help'], ['help', 'memory'], ['memory', 'help', 'write']]) expect((await run(args)).code, args.join(' ')).toBe(0)
    expect((await run(['memory', 'help', 'write'])).out).toMatch(/^Usage: cyrene memory write /)
  })

  it('what node parseArgs refused is still refused: a negative number, an option value that starts with a dash, a missing value (exit 2, nothing written)', async () => {
    const negative = await run(['memory', 'write', '-1'])
    expect(negative.code).toBe(2)
    expect(negative.err).toMatch(/^cyrene memory: Unknown option '-1'\. Usage: cyrene memory write \[options\] <text\.\.\.>\. Run `cyrene memory write --help`/)
    const ambiguous = await run(['memory', 'write', '雨天', '--reason', '-心情'])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.err).toContain(
      "Option '--reason' argument is ambiguous: did you forget its value? For a value that starts with a dash write --reason=-心情",
    )
    expect((await run(['memory', 'list', '--limit', '-3'])).code).toBe(2)
    const missing = await run(['memory', 'list', '--limit'])
    expect(missing.code).toBe(2)
    expect(missing.err).toContain("Option '--limit <N>' argument missing")
    expect(readdirSync(home)).toEqual([])
    // Written as --limit=-3 the value is taken, and the command refuses it itself.
    expect((await run(['memory', 'list', '--limit=-3'])).err).toContain('--limit must be a positive whole number')
  })

  it('--help anywhere before -- answers help, even where a value was expected, and writes nothing', async () => {
    const r = await run(['memory', 'write', '不该写下', '--reason', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Usage: cyrene memory write /)
    expect(readdirSync(home)).toEqual([])
  })

  it('positionals and options mix in any order; Chinese words are joined; repeated options keep their order; after -- everything is text', async () => {
    const w = await run(['memory', 'write', '她', '--axis', '美', '喜欢', '--src-id', 'b', '--reason', '口味', '抹茶', '--src-id', 'a', '--json'])
    expect(w.code).toBe(0)
    const { id } = JSON.parse(w.out) as { id: string }
    const shown = JSON.parse((await run(['memory', 'show', id, '--json'])).out) as { text: string; meta: { src_ids?: string[] } }
    expect(shown.text).toBe('她 喜欢 抹茶')
    expect(shown.meta.src_ids).toEqual(['b', 'a'])
    const dashed = await run(['memory', 'write', '--axis', '德', '--reason', 'r', '--json', '--', '-3度的冬天', '--kind'])
    expect(dashed.code).toBe(0)
    expect(JSON.parse((await run(['memory', 'show', (JSON.parse(dashed.out) as { id: string }).id, '--json'])).out).text).toBe('-3度的冬天 --kind')
  })

  it('an action still takes the options its siblings use, as before (whale inbox log --source), naming them apart from its own in its help', async () => {
    const log = await run(['whale', 'inbox', 'log', '--source', 'me'])
    expect(log.code).toBe(0)
    expect(log.out).toMatch(/^No inbox file at /)
    const help = (await run(['whale', 'inbox', 'log', '--help', '--lang', 'en'])).out
    expect(help).not.toMatch(/^ +--source/m)
    // --json is log's own since decision 329
    expect(help).toMatch(/^ +--json/m)
    expect(help).toContain('Also accepted, unused here (kept for older scripts): --source')
  })
})

describe('families load only when asked for (issue 8)', () => {
  /** The modules one `cyrene …` run loads, seen by a module hook in a fresh node process running the sources. */
  function loadedBy(argv: string[]): string[] {
    const log = join(home, 'loaded.txt')
    const hook = `import { registerHooks } from 'node:module'; import { writeFileSync } from 'node:fs'; const seen = []; registerHooks({ load(url, context, next) { seen.push(url); return next(url, context) } }); process.on('exit', () => writeFileSync(process.env.CYRENE_LOADED, seen.join('\\n')))`
    const mainUrl = pathToFileURL(join(import.meta.dirname, 'main.ts')).href
    const script = `const { main } = await import(${JSON.stringify(mainUrl)}); process.exitCode = await main(process.argv.slice(1))`
    const r = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', script, '--', ...argv],
      {
        env: { PATH: process.env.PATH, DSH_HOME: join(home, 'dsh'), CYRENE_LOADED: log },
        encoding: 'utf8',
      },
    )
    expect(r.status, r.stderr).toBe(0)
    return readFileSync(log, 'utf8')
      .split('\n')
      .map((u) => u.replace(pathToFileURL(join(import.meta.dirname, '..')).href, ''))
  }

  it('`cyrene --help` loads no family; `cyrene whale render` never loads the memory engine', () => {
    const help = loadedBy(['--help'])
    expect(help).toContain('/cli/main.ts')
    expect(help.filter((u) => /^\/(memory|whale)\//.test(u) || /^\/cli\/(memory|whale|doctor)/.test(u))).toEqual([])
    const whale = loadedBy(['whale', 'render', '--json'])
    expect(whale).toContain('/cli/whale-render.ts')
    expect(whale.filter((u) => /^\/memory\/(index|store|engine)\.ts$/.test(u) || u.startsWith('/cli/memory'))).toEqual([])
  })
})

describe('how a command was written, refused in the person language (the bad-input audit found the parser always English)', () => {
  it('zh: unknown command, sub-command and option, a missing value and an ambiguous one hold no English sentence; en keeps its words', async () => {
    const { englishSentences } = await import('../i18n/testing/language-rule.ts')
    const cases = [
      ['frob'],
      ['memory', 'lst'],
      ['memory', 'list', '--bogus'],
      ['memory', 'list', '--json=x'],
      ['memory', 'write', '--axis'],
      ['memory', 'write', 'x', '--reason', '--axis', '美'],
    ]
    for (const args of cases) {
      const zh = io()
      expect(await main([...args, '--lang', 'zh'], zh), args.join(' ')).toBe(2)
      expect(englishSentences(zh.err), zh.err).toEqual([])
      const en = io()
      expect(await main([...args, '--lang', 'en'], en)).toBe(2)
      expect(en.err).toMatch(/unknown (?:sub-)?command|Unknown option|argument missing|argument is ambiguous/)
    }
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DSH_VERSION } from '../scripts/ensure-dsh.ts'

/**
 * Issue 13 item 6: the READMEs are instructions a newcomer follows literally.
 * Every relative link must lead somewhere; every command in a `sh` block that
 * can run offline is run (the `cyrene` ones through the compiled bin against a
 * throwaway DSH_HOME) and must succeed; the others are listed below with the
 * reason they are not run, and a command that is neither fails the test. Usage
 * lines with placeholders belong in `text` blocks.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const READMES = ['README.md', 'README.zh.md']
const bin = join(repo, 'bin/cyrene.js')
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string; overrides: Record<string, string> }

/** Commands not run here, and why (each needs the network, a running DSH, a person, or changes this repository). */
const NOT_RUN: [RegExp, string][] = [
  [/^npm ci$/, 'downloads packages (network)'],
  [/^npm test$/, 'the whole suite, which this test is part of'],
  [/^npm pack$/, 'builds the tarball (compiles); tests/e2e packs and installs it'],
  [/^npm run compile$/, 'npm test compiles first (pretest); the cyrene runs below use that dist/'],
  [/^npm run build( -- --snapshot)?$/, "regenerates committed files from DSH's installed presets; scripts/build.test.ts guards their drift"],
  [/^npm start( -- --offline)?$/, 'starts DSH web for a person until Ctrl-C (tests/e2e/start.test.ts runs it with --offline and stops it)'],
  [
    /^npm run persona:ab -- --base HEAD( --offline)?$/,
    'runs 40 scenario sessions in dsh web, with the person’s model unless --offline (tests/e2e/persona-ab.test.ts runs it offline)',
  ],
  [/^npm install -g pnpm@/, 'installs a global package (network, changes the machine)'],
  [/^git clone /, 'network'],
  [/^cd /, 'moves the shell of the person reading'],
  [/^mkdir -p ~\/dsh-cli$/, "the dsh recipe works in the reader's home; scripts/ensure-dsh.ts runs the same recipe for the tests"],
  [/^printf '%s\\n' .* > (package\.json|pnpm-workspace\.yaml)$/, 'part of the dsh recipe (its pins are compared below)'],
  [/^pnpm install --ignore-scripts$/, 'downloads DSH (network); scripts/ensure-dsh.ts does it once for the tests'],
  [/^export PATH=/, "changes the reader's shell"],
  [/^dsh /, 'needs the real dsh and a profile or a browser (tests/e2e/dsh-cli.test.ts adds, runs and removes the plugin)'],
]

/** Commands run as they are written (`cyrene …` through the compiled bin); all must exit 0. */
const RUN_AS_IS = /^(cyrene |npm run cyrene -- |node --version$|pnpm --version$)/

/** Shell words of one command: quotes and backslashes as sh reads them; a `#` starting a word ends the line. */
function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '"') {
      let text = ''
      for (i++; line[i] !== '"'; i++) text += line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '') ? line[++i] : line[i]
      word = (word ?? '') + text
    } else if (c === '\\') word = (word ?? '') + line[++i]
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (c === '#' && word === undefined) break
    else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

/** The commands of every ```sh block, continuation lines joined, `a && b` split, comments dropped. */
function shCommands(markdown: string): string[] {
  const commands: string[] = []
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of block[1]!.replace(/\\\n\s*/g, ' ').split('\n')) {
      for (const part of line.split(' && ')) {
        const words = shellWords(part)
        if (words.length === 0) continue
        // Keep the text as written (the patterns above read it), without its trailing comment.
        const hash = part.search(/\s#\s/)
        commands.push((hash >= 0 && !/'[^']*\s#\s/.test(part) ? part.slice(0, hash) : part).trim())
      }
    }
  }
  return commands
}

const texts = Object.fromEntries(READMES.map((f) => [f, readFileSync(join(repo, f), 'utf8')]))
const scratch = mkdtempSync(join(tmpdir(), 'cyrene-readme-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('README.md and README.zh.md (issue 13 item 6)', () => {
  it.each(READMES)('%s: every relative link leads to a file or folder of this repository', (file) => {
    const targets = [...texts[file]!.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(https?:|mailto:|#)/.test(t))
    expect(targets.length).toBeGreaterThan(0)
    for (const target of targets) expect(existsSync(join(repo, target.split('#')[0]!)), `${file} links to ${target}`).toBe(true)
  })

  it('both READMEs give the same commands, and every one is either run here or listed with a reason', () => {
    const en = shCommands(texts['README.md']!)
    expect(shCommands(texts['README.zh.md']!)).toEqual(en)
    const unexplained = en.filter((c) => !RUN_AS_IS.test(c) && !NOT_RUN.some(([pattern]) => pattern.test(c)))
    expect(unexplained, 'a README command that is neither run nor explained in NOT_RUN').toEqual([])
  })

  it('the dsh recipe matches what the tests install: dsh version and vendor pins; the tarball name matches the version', () => {
    for (const file of READMES) {
      const text = texts[file]!
      expect(text).toContain(`"@deepseek-ai/dsh": "${DSH_VERSION}"`)
      const pins = Object.fromEntries([...text.matchAll(/'  "(@deepseek-ai\/[a-z-]+)": "([\d.]+)"'/g)].map((m) => [m[1], m[2]]))
      expect(pins).toEqual(pkg.overrides)
      for (const m of text.matchAll(/dsh-cyrene-philia093-0-(\d[\w.-]*)\.tgz/g)) expect(m[1]).toBe(pkg.version)
    }
  })

  it.each(READMES)('%s: every offline command runs and exits 0 (cyrene through the compiled bin, a fresh DSH_HOME)', (file) => {
    const home = mkdtempSync(join(scratch, 'home-'))
    const work = mkdtempSync(join(scratch, 'work-'))
    // The newer node that runs this test, then the repository's tools (pnpm), then the rest.
    const env = { PATH: [dirname(process.execPath), join(repo, 'node_modules/.bin'), process.env.PATH ?? ''].join(delimiter), HOME: home, DSH_HOME: home }
    const ran: string[] = []
    for (const command of shCommands(texts[file]!).filter((c) => RUN_AS_IS.test(c))) {
      const words = shellWords(command)
      const argv = words[0] === 'cyrene' ? [bin, ...words.slice(1)] : words[0] === 'npm' ? [bin, ...words.slice(4)] : words.slice(1)
      const program = words[0] === 'cyrene' || words[0] === 'npm' || words[0] === 'node' ? process.execPath : join(repo, 'node_modules/.bin', words[0]!)
      const r = spawnSync(program, argv, { cwd: work, env, encoding: 'utf8' })
      expect({ command, status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ command, status: 0, stderr: '' })
      ran.push(command)
    }
    expect(ran).toContain('cyrene doctor')
    expect(ran.filter((c) => c.startsWith('cyrene ')).length).toBeGreaterThanOrEqual(10)
  })
})

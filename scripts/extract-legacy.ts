import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parseComposition } from './build/yaml-js.ts'

/**
 * Carry persona text over from a retired plugin (dsh-cyrene 0.6.3, dsh-cyrene-
 * eternal-page-remembrance 0.5.x): find every `@deepseek-ai/dsh-persona` row in
 * its YAML files and write the text beside persona/ for a person to compare.
 * Only `--write` replaces persona/*.md; the retired plugin is only read.
 */
const USAGE = `Usage: node scripts/extract-legacy.ts --from <retired plugin folder> [--write]

Writes persona/chat.legacy.md and persona/work.legacy.md for comparison.
--write   replace persona/chat.md and persona/work.md instead (then run \`npm run build\`;
          a persona change opens a new volume: \`cyrene volume new\`).
`
const PERSONA_ROW = '@deepseek-ai/dsh-persona'
const SKIP = new Set(['node_modules', '.git', 'dist'])

export interface FoundPersona {
  target: 'chat' | 'work'
  text: string
  file: string
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yamlFiles(path, out)
    else if (/\.ya?ml$/.test(name)) out.push(path)
  }
  return out.sort()
}

/** Persona rows anywhere in a composition or patch list (rows, groups, `insert` lists). */
function personaTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(personaTexts)
  if (typeof node !== 'object' || node === null) return []
  const row = node as Record<string, unknown>
  const own = row.name === PERSONA_ROW && typeof (row.config as { text?: unknown })?.text === 'string' ? [(row.config as { text: string }).text] : []
  return [...own, ...personaTexts(row.insert), ...(Array.isArray(row.config) ? personaTexts(row.config) : [])]
}

/** Work presets are recognised by "work" in their folder, file or row ids; everything else is chat. */
function targetOf(file: string, text: string): 'chat' | 'work' {
  return /work/i.test(relative(dirname(dirname(file)), file)) || /德谬歌|Demiurge/.test(text.slice(0, 200)) ? 'work' : 'chat'
}

export function findLegacyPersonas(from: string): FoundPersona[] {
  const found: FoundPersona[] = []
  for (const file of yamlFiles(from)) {
    let parsed: unknown
    try {
      parsed = parseComposition(readFileSync(file, 'utf8'))
    } catch {
      continue
    }
    for (const text of personaTexts(parsed)) found.push({ target: targetOf(file, text), text, file })
  }
  return found
}

export function extractLegacy(root: string, from: string, write: boolean): { written: string[]; found: FoundPersona[] } {
  const found = findLegacyPersonas(from)
  const written: string[] = []
  for (const target of ['chat', 'work'] as const) {
    const first = found.find((f) => f.target === target)
    if (first === undefined) continue
    const out = join(root, 'persona', write ? `${target}.md` : `${target}.legacy.md`)
    writeFileSync(out, first.text.endsWith('\n') ? first.text : first.text + '\n')
    written.push(out)
  }
  return { written, found }
}

function cli(argv: string[]): number {
  let args
  try {
    args = parseArgs({ args: argv, options: { from: { type: 'string' }, write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } })
  } catch (error) {
    process.stderr.write(`extract-legacy: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (args.values.help === true) {
    process.stdout.write(USAGE)
    return 0
  }
  const from = args.values.from
  if (from === undefined || !existsSync(from) || !statSync(from).isDirectory()) {
    process.stderr.write(`extract-legacy: --from must name the retired plugin's folder${from === undefined ? '' : ` (${from} is not a folder)`}\n${USAGE}`)
    return 2
  }
  const root = fileURLToPath(new URL('..', import.meta.url))
  const { written, found } = extractLegacy(root, resolve(from), args.values.write === true)
  if (written.length === 0) {
    process.stderr.write(`extract-legacy: no ${PERSONA_ROW} row with text found under ${from}; nothing written\n`)
    return 1
  }
  for (const f of found) process.stdout.write(`found ${f.target} persona in ${relative(process.cwd(), f.file)} (${f.text.length} chars)\n`)
  for (const w of written) process.stdout.write(`wrote ${relative(process.cwd(), w)}\n`)
  if (found.length > written.length)
    process.stdout.write(`${found.length - written.length} more persona rows were found; only the first for each preset was written (${basename(from)})\n`)
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = cli(process.argv.slice(2))

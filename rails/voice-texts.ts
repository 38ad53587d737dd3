import { readFileSync } from 'node:fs'
import { packagePath } from '../host/package-root.ts'

/**
 * Her forms (rail 125) and 道韵 style levels (rail 130) are data a person can
 * edit: markdown shipped in `voice/`, overridden by a same-named file in the
 * store's `元/` (`元/forms.md`, `元/styles.md`). Parsing is pure; a file that
 * does not parse is replaced as a whole by the shipped one, and the problem
 * goes to the doctor. No DSH import: the command line reads these too.
 */

export interface VoiceForm {
  name: string
  /** Scene words: CJK ones match as substrings, Latin ones as whole words, case-insensitive. */
  scenes: string[]
  /** Local hours it fits, `from` inclusive to `to` exclusive, wrapping past midnight when from > to. */
  hours?: { from: number; to: number }
  text: string
}

export interface VoiceStyle {
  name: string
  text: string
}

export interface Parsed<T> {
  items: T[]
  problems: string[]
}

interface Section {
  heading: string
  line: number
  lines: string[]
}

/** `## name` sections of a markdown text; what comes before the first one is the file's own help. */
function sections(md: string): Section[] {
  const out: Section[] = []
  md.split(/\r?\n/).forEach((line, i) => {
    const h = /^##\s+(.*)$/.exec(line)
    if (h !== null) out.push({ heading: (h[1] ?? '').trim(), line: i + 1, lines: [] })
    else out.at(-1)?.lines.push(line)
  })
  return out
}

const FIELD_RE = /^(场景|时段)[:：]\s*(.*)$/
const DEFAULT_MARK_RE = /[（(]默认[)）]\s*$/

function body(lines: readonly string[]): string {
  return lines
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n')
}

function parseHours(value: string): { from: number; to: number } | undefined {
  const m = /^(\d{1,2})\s*[-–~～至到]\s*(\d{1,2})$/.exec(value.trim())
  if (m === null) return undefined
  const from = Number(m[1])
  const to = Number(m[2])
  if (from > 24 || to > 24 || from === to) return undefined
  return { from: from % 24, to: to % 24 }
}

function checkNames<T extends { name: string }>(items: T[], problems: string[], file: string): void {
  const seen = new Set<string>()
  for (const item of items) {
    if (seen.has(item.name)) problems.push(`${file}: the name 「${item.name}」 appears twice`)
    seen.add(item.name)
  }
  if (items.length === 0) problems.push(`${file}: no 「## 名字」 section`)
}

/** Pure: the forms of a forms file, and every problem (any problem means the file is not used). */
export function parseForms(md: string, file = 'forms.md'): Parsed<VoiceForm> {
  const problems: string[] = []
  const items: VoiceForm[] = []
  for (const s of sections(md)) {
    const form: VoiceForm = { name: s.heading, scenes: [], text: '' }
    const rest: string[] = []
    for (const line of s.lines) {
      const f = FIELD_RE.exec(line.trim())
      if (f === null) {
        rest.push(line)
        continue
      }
      const value = f[2] ?? ''
      if (f[1] === '场景')
        form.scenes = value
          .split(/[,，、;；]/)
          .map((w) => w.trim())
          .filter((w) => w !== '')
      else {
        const hours = parseHours(value)
        if (hours === undefined) problems.push(`${file} line ${s.line}: 时段「${value}」 is not like 22-7 (hours 0–24, from ≠ to)`)
        else form.hours = hours
      }
    }
    form.text = body(rest)
    if (form.name === '') problems.push(`${file} line ${s.line}: a form without a name`)
    if (form.text === '') problems.push(`${file} line ${s.line}: the form 「${form.name}」 has no description`)
    items.push(form)
  }
  checkNames(items, problems, file)
  return { items, problems }
}

/** Pure: the style levels of a styles file, the default first (marked 「（默认）」, else the first listed). */
export function parseStyles(md: string, file = 'styles.md'): Parsed<VoiceStyle> & { defaultName: string } {
  const problems: string[] = []
  const items: VoiceStyle[] = []
  let defaultName: string | undefined
  for (const s of sections(md)) {
    const isDefault = DEFAULT_MARK_RE.test(s.heading)
    const name = s.heading.replace(DEFAULT_MARK_RE, '').trim()
    const text = body(s.lines)
    if (name === '') problems.push(`${file} line ${s.line}: a style without a name`)
    if (text === '') problems.push(`${file} line ${s.line}: the style 「${name}」 has no text`)
    if (isDefault) {
      if (defaultName !== undefined) problems.push(`${file} line ${s.line}: more than one 「（默认）」`)
      defaultName ??= name
    }
    items.push({ name, text })
  }
  checkNames(items, problems, file)
  return { items, problems, defaultName: defaultName ?? items[0]?.name ?? '' }
}

export interface VoiceTexts {
  forms: VoiceForm[]
  styles: VoiceStyle[]
  defaultStyle: string
  /** Where each came from, and why an override was not used. */
  source: { forms: 'shipped' | 'store'; styles: 'shipped' | 'store' }
  problems: string[]
}

/** The store files that override the shipped ones (rel. to the store root). */
export const FORMS_OVERRIDE = '元/forms.md'
export const STYLES_OVERRIDE = '元/styles.md'

let shipped: { forms: Parsed<VoiceForm>; styles: ReturnType<typeof parseStyles> } | undefined

function shippedTexts(): NonNullable<typeof shipped> {
  shipped ??= {
    forms: parseForms(readFileSync(packagePath('voice', 'forms.md'), 'utf8'), 'voice/forms.md'),
    styles: parseStyles(readFileSync(packagePath('voice', 'styles.md'), 'utf8'), 'voice/styles.md'),
  }
  return shipped
}

/**
 * The forms and styles in force: each store override ('' or undefined = none)
 * when it parses cleanly, else the shipped file (with the override's problems).
 */
export function voiceTexts(formsOverride?: string, stylesOverride?: string): VoiceTexts {
  const base = shippedTexts()
  const problems: string[] = []
  let forms = base.forms.items
  let styles = base.styles
  const source: VoiceTexts['source'] = { forms: 'shipped', styles: 'shipped' }
  if (formsOverride !== undefined && formsOverride.trim() !== '') {
    const parsed = parseForms(formsOverride, FORMS_OVERRIDE)
    if (parsed.problems.length === 0) {
      forms = parsed.items
      source.forms = 'store'
    } else problems.push(...parsed.problems.map((p) => `${p}; using the shipped forms until it is fixed`))
  }
  if (stylesOverride !== undefined && stylesOverride.trim() !== '') {
    const parsed = parseStyles(stylesOverride, STYLES_OVERRIDE)
    if (parsed.problems.length === 0) {
      styles = parsed
      source.styles = 'store'
    } else problems.push(...parsed.problems.map((p) => `${p}; using the shipped styles until it is fixed`))
  }
  return { forms, styles: styles.items, defaultStyle: styles.defaultName, source, problems }
}

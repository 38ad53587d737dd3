import type { Word } from './shell-lex.ts'
import { NEW_ENTRY, UNKNOWN, type PathRef, type ShellEnv, type ShellReading } from './shell-types.ts'

/** The words of a command as the paths they may stand for, and the reading's running state (folders, variables). */

export interface Value {
  /** The word's text with runtime parts as UNKNOWN. */
  text: string
  dynamic: boolean
  glob: boolean
  /** An unquoted `{a,b}` or `{1..3}`: bash makes several words of it. */
  brace?: boolean
}

export interface State {
  env: ShellEnv
  /** Every folder the command might be in at this point: a `cd` that may fail keeps the old one too. */
  cwds: string[]
  /** Variables assigned earlier in this command line. */
  assigned: Map<string, string | undefined>
  out: ShellReading
  depth: number
  /** The current command is a `cd` whose failure stops what follows (`cd x && …`): it moves the shell, nothing else is possible. */
  certainCd?: boolean
}

export function valueOf(w: Word, st: State): Value {
  let text = ''
  let dynamic = false
  let glob = false
  let brace = false
  for (const p of w.parts) {
    if (p.kind === 'lit') {
      text += p.text
      if (!p.quoted && /[*?[]/.test(p.text)) glob = true
      if (!p.quoted && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(p.text)) brace = true
    } else if (p.kind === 'tilde') {
      if (st.env.home === undefined) {
        text += UNKNOWN
        dynamic = true
      } else text += st.env.home
    } else if (p.kind === 'var') {
      const v = st.assigned.has(p.name) ? st.assigned.get(p.name) : p.name === 'PWD' && st.cwds.length === 1 ? st.cwds[0] : st.env.vars[p.name]
      if (v === undefined) {
        text += UNKNOWN
        dynamic = true
      } else text += v
    } else {
      text += UNKNOWN
      dynamic = true
    }
  }
  return brace ? { text, dynamic, glob, brace } : { text, dynamic, glob }
}

/** Brace expansion (`{a,b}`, `{1..3}`, `{a..c}`), innermost first (a repeated word is harmless here), at most 256 words. */
export function expandBraces(text: string): string[] {
  const m = /\{([^{}]*)\}/.exec(text)
  if (m === null) return [text]
  const body = m[1]!
  let alternatives: string[]
  const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(body)
  if (body.includes(',')) alternatives = body.split(',')
  else if (range !== null) alternatives = rangeOf(range[1]!, range[2]!)
  else return [text]
  const head = text.slice(0, m.index)
  const tail = text.slice(m.index + m[0].length)
  const out: string[] = []
  for (const alt of alternatives) {
    for (const rest of expandBraces(head + alt + tail)) {
      out.push(rest)
      if (out.length >= 256) return out
    }
  }
  return out
}

function rangeOf(from: string, to: string): string[] {
  const numeric = /^-?\d+$/.test(from)
  const a = numeric ? Number(from) : from.charCodeAt(0)
  const b = numeric ? Number(to) : to.charCodeAt(0)
  const width = numeric && (from.startsWith('0') || to.startsWith('0')) ? Math.max(from.length, to.length) : 0
  const out: string[] = []
  for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) {
    out.push(numeric ? String(i).padStart(width, '0') : String.fromCharCode(i))
    if (out.length >= 256) break
  }
  return out
}

/** A word as the paths it may stand for: one per possible working folder when it is relative. */
export function pathsOf(v: Value, st: State): PathRef[] {
  if (v.brace === true) return expandBraces(v.text).flatMap((text) => pathsOf({ text, dynamic: v.dynamic, glob: v.glob }, st))
  if (v.text === '') return []
  const glob = v.glob ? { glob: true } : {}
  if (v.text.startsWith('/')) return [v.dynamic ? { text: v.text, ...glob } : { abs: v.text, text: v.text, ...glob }]
  return st.cwds.map((cwd) => {
    const joined = `${cwd.endsWith('/') ? cwd.slice(0, -1) : cwd}/${v.text}`
    return v.dynamic || cwd.includes(UNKNOWN) ? { text: joined, ...glob } : { abs: joined, text: joined, ...glob }
  })
}

/** Path-like pieces of free text (an interpreter's program, a heredoc): what a program might open. */
function tokensOfText(text: string): string[] {
  return text.split(/[\s'"`(),;=<>|&{}[\]]+/).filter((t) => t !== '' && (t.includes('/') || t.startsWith('~') || t.includes('元') || t.includes('cyrene')))
}

export function textPaths(text: string, st: State): PathRef[] {
  return tokensOfText(text).flatMap((t) => {
    const expanded = t.startsWith('~/') || t === '~' ? (st.env.home === undefined ? UNKNOWN + t.slice(1) : st.env.home + t.slice(1)) : t
    const withVars = expanded.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => st.assigned.get(name) ?? st.env.vars[name] ?? UNKNOWN)
    return pathsOf({ text: withVars, dynamic: withVars.includes(UNKNOWN), glob: false }, st)
  })
}

export function skipOptions(a: Value[], takesValue: RegExp): number {
  let i = 0
  while (i < a.length && a[i]!.text.startsWith('-')) {
    if (a[i]!.text === '--') return i + 1
    i += takesValue.test(a[i]!.text) ? 2 : 1
  }
  return i
}

/** Operands: words that are not options (after `--`, every word). */
export function operands(args: Value[]): Value[] {
  const out: Value[] = []
  let optionsDone = false
  for (const a of args) {
    if (!optionsDone && a.text === '--') optionsDone = true
    else if (optionsDone || !a.text.startsWith('-') || a.text === '-') out.push(a)
  }
  return out
}

/** Values of options (`--target-directory=DIR`, `-t DIR`, `-oFILE`) that may be paths. */
export function optionValues(args: Value[], withValue: RegExp): Value[] {
  const out: Value[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const eq = /^--[A-Za-z-]+=(.*)$/s.exec(a.text)
    if (eq !== null) out.push({ ...a, text: eq[1]! })
    else if (withValue.test(a.text) && args[i + 1] !== undefined) out.push(args[++i]!)
  }
  return out
}

export function addWrites(st: State, values: Value[]): void {
  for (const v of values) st.out.writes.push(...pathsOf(v, st))
}

/** A new entry somewhere inside a folder (an extraction, a download): a name that cannot exist stands for it. */
export function insideOf(v: Value | undefined): Value {
  // A plain name (no NUL: the file system would throw on it): the folder it sits in is what is classified.
  return { text: `${v === undefined ? '.' : v.text}/${NEW_ENTRY}`, dynamic: v?.dynamic ?? false, glob: false }
}

export function unsure(st: State, why: string, mentions: PathRef[]): void {
  st.out.unsureWhy.push(why)
  st.out.unsureMentions.push(...mentions)
  st.out.unsureCwds.push(...st.cwds.map((c) => (c.includes(UNKNOWN) ? { text: c } : { abs: c, text: c })))
}

/** Everything a command names: its words, and path-like pieces of words that hold code or text. */
export function mentionsOf(values: Value[], st: State, extraText: string[] = []): PathRef[] {
  return [
    ...values.flatMap((v) => [...pathsOf(v, st), ...(/[\s'"(]/.test(v.text) ? textPaths(v.text, st) : [])]),
    ...extraText.flatMap((t) => textPaths(t, st)),
  ]
}

export function cd(args: Value[], st: State): void {
  const target = operands(args)[0]
  if (target === undefined) {
    if (st.env.home !== undefined) st.cwds = union(st.cwds, [st.env.home])
    return
  }
  if (target.text === '-' || target.dynamic) {
    st.cwds = union(st.cwds, [
      target.dynamic ? (target.text.startsWith('/') || target.text.startsWith(UNKNOWN) ? target.text : `${UNKNOWN}/${target.text}`) : UNKNOWN,
    ])
    return
  }
  const to = pathsOf(target, st).map((p) => p.abs ?? p.text)
  // `cd x && rm y`: y runs only where cd went. Otherwise the old folders stay possible: a `cd` that fails (`cd x; rm y`) leaves the shell where it was.
  st.cwds = st.certainCd === true ? union([], to) : union(st.cwds, to)
}

export function union(a: string[], b: string[]): string[] {
  const all = [...new Set([...a, ...b])]
  return all.length > 16 ? [...all.slice(0, 15), UNKNOWN] : all
}

export function baseName(text: string): string {
  const slash = text.lastIndexOf('/')
  return slash < 0 ? text : text.slice(slash + 1)
}

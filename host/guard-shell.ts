/**
 * A conservative, pure reading of a bash command line for the store guard
 * (`host/store-guard.ts`): which paths the command would change, and which
 * paths it merely names while doing something this reader cannot follow (an
 * interpreter, an unknown program, `xargs`). It touches no file: the guard
 * resolves and classifies the paths it returns. It is not a bash parser and
 * does not try to be one; where it cannot tell, it says "unsure" so the guard
 * can refuse when a protected path is named (CONTRACT §2.4 lists what it
 * cannot see).
 */

/** A path the command would change or names: known absolute text, or only the literal pieces of a runtime-built one. */
export interface PathRef {
  /** Absolute path, `..` kept (the guard resolves it physically). Absent when part of it is only known at run time. */
  abs?: string
  /** The literal text seen (runtime parts as `\u0000`), for the guard's name checks. */
  text: string
  /** An unquoted glob character is in it: the guard expands it against the disk. */
  glob?: boolean
}

export interface ShellReading {
  /** Paths the command would create, change, move or remove. */
  writes: PathRef[]
  /** Paths named by commands this reader cannot follow (interpreters, unknown programs, xargs…). */
  unsureMentions: PathRef[]
  /** Working folders an unsure command runs in (a program started inside the store is refused). */
  unsureCwds: PathRef[]
  /** Why a command counted as unsure, for the refusal message. */
  unsureWhy: string[]
  /**
   * Everything the whole command line names (every word, heredoc bodies, path-like pieces of
   * quoted text): a write whose path is only known at run time (`rm "$f"`) is refused when any
   * of these is protected.
   */
  scriptMentions: PathRef[]
  /**
   * `cyrene …` invocations that write: the command line writes as the person
   * (contract §12.14), so the model may not run it to change the store.
   */
  asPerson: string[]
}

export interface ShellEnv {
  home: string | undefined
  /** Variables whose value the guard knows (DSH_HOME, HOME…). */
  vars: Record<string, string | undefined>
}

const UNKNOWN = '\u0000'
/** The name that stands for an entry a command creates inside a folder. */
const NEW_ENTRY = '.cyrene-guard-new-entry'

// ---------------------------------------------------------------- lexer

type Part = { kind: 'lit'; text: string; quoted: boolean } | { kind: 'var'; name: string } | { kind: 'dyn' } | { kind: 'tilde' }

interface Word {
  parts: Part[]
}

type Token = { t: 'word'; w: Word } | { t: 'op'; op: string } | { t: 'redir'; op: string; body?: string }

interface Lexed {
  tokens: Token[]
  /** Inner scripts of `$(…)`, backticks and `<(…)` / `>(…)`, read as commands of their own. */
  subs: string[]
}

const OPS = ['&&', '||', ';;', '|&', '&', '|', ';', '(', ')', '\n']
const REDIRS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '>>', '>|', '>&', '<&', '>', '<']

/** Finds the end of a `$(…)`-like group starting after its opening bracket; quotes and nesting respected. */
function closeOf(src: string, from: number, open: string, close: string): number {
  let depth = 1
  for (let i = from; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1)
      i = j < 0 ? src.length : j
      continue
    }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++
      continue
    }
    if (c === open) depth++
    else if (c === close && --depth === 0) return i
  }
  return src.length
}

function lex(src: string): Lexed {
  const tokens: Token[] = []
  const subs: string[] = []
  const pendingHeredocs: { delim: string; strip: boolean; token: Token & { t: 'redir' } }[] = []
  let parts: Part[] | undefined
  let i = 0
  const lit = (text: string, quoted: boolean) => {
    parts ??= []
    const last = parts[parts.length - 1]
    if (last?.kind === 'lit' && last.quoted === quoted) last.text += text
    else parts.push({ kind: 'lit', text, quoted })
  }
  const push = (p: Part) => {
    parts ??= []
    parts.push(p)
  }
  const endWord = () => {
    if (parts !== undefined) tokens.push({ t: 'word', w: { parts } })
    parts = undefined
  }
  /** `$…` at src[i] (i points at `$`); returns the index after it. */
  const dollar = (at: number): number => {
    const next = src[at + 1]
    if (next === '(') {
      if (src[at + 2] === '(') {
        const end = closeOf(src, at + 3, '(', ')')
        push({ kind: 'dyn' })
        return Math.min(src.length, end + 2)
      }
      const end = closeOf(src, at + 2, '(', ')')
      subs.push(src.slice(at + 2, end))
      push({ kind: 'dyn' })
      return end + 1
    }
    if (next === '{') {
      const end = closeOf(src, at + 2, '{', '}')
      const inner = src.slice(at + 2, end)
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) push({ kind: 'var', name: inner })
      else push({ kind: 'dyn' })
      return end + 1
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(at + 1))
    if (name !== null) {
      push({ kind: 'var', name: name[0] })
      return at + 1 + name[0].length
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      push({ kind: 'dyn' })
      return at + 2
    }
    lit('$', false)
    return at + 1
  }

  while (i < src.length) {
    const c = src[i]!
    if (c === '\\') {
      if (src[i + 1] === '\n') i += 2
      else {
        lit(src[i + 1] ?? '', true)
        i += 2
      }
      continue
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1)
      lit(src.slice(i + 1, j < 0 ? src.length : j), true)
      i = j < 0 ? src.length : j + 1
      continue
    }
    if (c === '$' && src[i + 1] === "'") {
      // ANSI-C quoting: escapes are kept as written; a path built from escapes reads as literal text.
      let j = i + 2
      let text = ''
      for (; j < src.length && src[j] !== "'"; j++) {
        if (src[j] === '\\') text += src[++j] ?? ''
        else text += src[j]
      }
      lit(text, true)
      i = j + 1
      continue
    }
    if (c === '"') {
      let j = i + 1
      let buf = ''
      for (; j < src.length && src[j] !== '"'; j++) {
        const d = src[j]!
        if (d === '\\' && /["\\$`\n]/.test(src[j + 1] ?? '')) {
          buf += src[++j]
        } else if (d === '$' || d === '`') {
          if (buf !== '') lit(buf, true)
          buf = ''
          if (d === '$') j = dollar(j) - 1
          else {
            const end = src.indexOf('`', j + 1)
            subs.push(src.slice(j + 1, end < 0 ? src.length : end))
            push({ kind: 'dyn' })
            j = end < 0 ? src.length : end
          }
        } else buf += d
      }
      if (buf !== '' || parts === undefined) lit(buf, true)
      i = j + 1
      continue
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1)
      subs.push(src.slice(i + 1, end < 0 ? src.length : end))
      push({ kind: 'dyn' })
      i = end < 0 ? src.length : end + 1
      continue
    }
    if (c === '$') {
      i = dollar(i)
      continue
    }
    if ((c === '<' || c === '>') && src[i + 1] === '(') {
      endWord()
      const end = closeOf(src, i + 2, '(', ')')
      subs.push(src.slice(i + 2, end))
      tokens.push({ t: 'word', w: { parts: [{ kind: 'dyn' }] } })
      i = end + 1
      continue
    }
    if (c === '#' && parts === undefined) {
      const nl = src.indexOf('\n', i)
      i = nl < 0 ? src.length : nl
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord()
      i++
      continue
    }
    // `~` at the start of a word, or right after `NAME=` (bash expands both).
    const afterAssign = parts?.length === 1 && parts[0]!.kind === 'lit' && !parts[0]!.quoted && /^[A-Za-z_][A-Za-z0-9_]*=$/.test(parts[0]!.text)
    if (c === '~' && (parts === undefined || afterAssign) && (src[i + 1] === undefined || /[/\s;&|)]/.test(src[i + 1]!))) {
      push({ kind: 'tilde' })
      i++
      continue
    }
    const redir = REDIRS.find((r) => src.startsWith(r, i))
    if (redir !== undefined) {
      // `2>` / `10>`: a word of digits right before a redirection is its descriptor, not an argument.
      if (parts !== undefined && parts.every((p) => p.kind === 'lit' && !p.quoted && /^\d+$/.test(p.text))) parts = undefined
      endWord()
      const token: Token & { t: 'redir' } = { t: 'redir', op: redir }
      tokens.push(token)
      i += redir.length
      if (redir === '<<' || redir === '<<-') {
        const m = /^[ \t]*(['"]?)([^\s'";&|<>()]+)\1/.exec(src.slice(i))
        if (m !== null) {
          pendingHeredocs.push({ delim: m[2]!, strip: redir === '<<-', token })
          i += m[0].length
        }
      }
      continue
    }
    const op = OPS.find((o) => src.startsWith(o, i))
    if (op !== undefined) {
      endWord()
      tokens.push({ t: 'op', op })
      i += op.length
      if (op === '\n' && pendingHeredocs.length > 0) {
        for (const h of pendingHeredocs.splice(0)) {
          const lines: string[] = []
          while (i < src.length) {
            const nl = src.indexOf('\n', i)
            const line = src.slice(i, nl < 0 ? src.length : nl)
            i = nl < 0 ? src.length : nl + 1
            if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break
            lines.push(line)
          }
          h.token.body = lines.join('\n')
        }
      }
      continue
    }
    lit(c, false)
    i++
  }
  endWord()
  return { tokens, subs }
}

// ---------------------------------------------------------------- words

interface Value {
  /** The word's text with runtime parts as UNKNOWN. */
  text: string
  dynamic: boolean
  glob: boolean
  /** An unquoted `{a,b}` or `{1..3}`: bash makes several words of it. */
  brace?: boolean
}

interface State {
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

function valueOf(w: Word, st: State): Value {
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
function pathsOf(v: Value, st: State): PathRef[] {
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

function textPaths(text: string, st: State): PathRef[] {
  return tokensOfText(text).flatMap((t) => {
    const expanded = t.startsWith('~/') || t === '~' ? (st.env.home === undefined ? UNKNOWN + t.slice(1) : st.env.home + t.slice(1)) : t
    const withVars = expanded.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => st.assigned.get(name) ?? st.env.vars[name] ?? UNKNOWN)
    return pathsOf({ text: withVars, dynamic: withVars.includes(UNKNOWN), glob: false }, st)
  })
}

// ---------------------------------------------------------------- commands

interface Simple {
  words: Word[]
  redirs: (Token & { t: 'redir' })[]
  /** The pipeline this command is part of, for commands that read their paths from stdin. */
  pipeline: Simple[]
}

/** Commands that change nothing by themselves (their redirections are still read). */
const READ_ONLY = new Set(
  (
    'cat tac less more head tail grep egrep fgrep rg ag ack ls ll la dir vdir tree stat file wc du df diff cmp comm ' +
    'md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum realpath readlink basename dirname pwd ' +
    'echo printf true false test [ [[ jq cut tr nl od hexdump strings column fold fmt expand unexpand paste join ' +
    'base64 base32 which type whoami id date cal uname hostname printenv sleep exit return set ' +
    'shopt local declare typeset export readonly unset read wait jobs history alias unalias hash getconf locale ' +
    'bat batcat view zcat zless bzcat xzcat lsof ps top free uptime nproc seq yes rev look numfmt tput clear : ' +
    'lsattr getfacl getfattr namei sha1 shasum md5'
  ).split(' '),
)

/** Commands whose every operand (and option value) is a path they change. */
const CHANGES_OPERANDS = new Set(
  (
    'rm rmdir unlink touch mkdir mkfifo mknod chmod chown chgrp chattr setfacl truncate tee shred gzip gunzip ' +
    'bzip2 bunzip2 xz unxz lzma zstd unzstd compress uncompress sponge ed ex vi vim nvim nano pico emacs mcedit ' +
    'joe micro kak hx setfattr xattr rename prename file-rename fallocate split csplit patch install mv ln zip ' +
    'mktemp link srm wipe trash trash-put gio'
  ).split(' '),
)

/** Commands that write their last operand (or `-t DIR`); the other operands are read. */
const CHANGES_LAST = new Set(['cp', 'rsync', 'scp', 'rclone'])

/** Programs that only start another command: the rest of the line is read as that command. */
const WRAPPERS: Record<string, (args: Value[]) => number> = {
  sudo: (a) => skipOptions(a, /^-[ugpCDhrtTU]$/),
  doas: (a) => skipOptions(a, /^-[uC]$/),
  env: (a) => {
    let i = 0
    while (i < a.length && (a[i]!.text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(a[i]!.text))) i += /^-[uSC]$/.test(a[i]!.text) ? 2 : 1
    return i
  },
  nice: (a) => skipOptions(a, /^-n$/),
  ionice: (a) => skipOptions(a, /^-[cnp]$/),
  nohup: () => 0,
  command: (a) => (a[0]?.text === '-v' || a[0]?.text === '-V' ? a.length : skipOptions(a, /^$/)),
  builtin: () => 0,
  exec: (a) => skipOptions(a, /^-a$/),
  time: (a) => skipOptions(a, /^-[fo]$/),
  timeout: (a) => {
    const i = skipOptions(a, /^-[sk]$/)
    return i + 1
  },
  stdbuf: (a) => skipOptions(a, /^$/),
  chronic: () => 0,
  caffeinate: (a) => skipOptions(a, /^-[tw]$/),
  unbuffer: () => 0,
  setsid: (a) => skipOptions(a, /^$/),
  chroot: (a) => 1 + skipOptions(a, /^$/),
  runuser: (a) => skipOptions(a, /^-[ug]$/),
  firejail: (a) => skipOptions(a, /^$/),
  watch: (a) => skipOptions(a, /^-[nd]$/),
}

function skipOptions(a: Value[], takesValue: RegExp): number {
  let i = 0
  while (i < a.length && a[i]!.text.startsWith('-')) {
    if (a[i]!.text === '--') return i + 1
    i += takesValue.test(a[i]!.text) ? 2 : 1
  }
  return i
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox'])

/** Operands: words that are not options (after `--`, every word). */
function operands(args: Value[]): Value[] {
  const out: Value[] = []
  let optionsDone = false
  for (const a of args) {
    if (!optionsDone && a.text === '--') optionsDone = true
    else if (optionsDone || !a.text.startsWith('-') || a.text === '-') out.push(a)
  }
  return out
}

/** Values of options (`--target-directory=DIR`, `-t DIR`, `-oFILE`) that may be paths. */
function optionValues(args: Value[], withValue: RegExp): Value[] {
  const out: Value[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const eq = /^--[A-Za-z-]+=(.*)$/s.exec(a.text)
    if (eq !== null) out.push({ ...a, text: eq[1]! })
    else if (withValue.test(a.text) && args[i + 1] !== undefined) out.push(args[++i]!)
  }
  return out
}

function addWrites(st: State, values: Value[]): void {
  for (const v of values) st.out.writes.push(...pathsOf(v, st))
}

/** A new entry somewhere inside a folder (an extraction, a download): a name that cannot exist stands for it. */
function insideOf(v: Value | undefined): Value {
  // A plain name (no NUL: the file system would throw on it): the folder it sits in is what is classified.
  return { text: `${v === undefined ? '.' : v.text}/${NEW_ENTRY}`, dynamic: v?.dynamic ?? false, glob: false }
}

function unsure(st: State, why: string, mentions: PathRef[]): void {
  st.out.unsureWhy.push(why)
  st.out.unsureMentions.push(...mentions)
  st.out.unsureCwds.push(...st.cwds.map((c) => (c.includes(UNKNOWN) ? { text: c } : { abs: c, text: c })))
}

/** Everything a command names: its words, and path-like pieces of words that hold code or text. */
function mentionsOf(values: Value[], st: State, extraText: string[] = []): PathRef[] {
  return [
    ...values.flatMap((v) => [...pathsOf(v, st), ...(/[\s'"(]/.test(v.text) ? textPaths(v.text, st) : [])]),
    ...extraText.flatMap((t) => textPaths(t, st)),
  ]
}

function cd(args: Value[], st: State): void {
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

function union(a: string[], b: string[]): string[] {
  const all = [...new Set([...a, ...b])]
  return all.length > 16 ? [...all.slice(0, 15), UNKNOWN] : all
}

function analyseSimple(cmd: Simple, st: State): void {
  let values = cmd.words.map((w) => valueOf(w, st))
  // Leading assignments: `X=1 cmd` sets X for cmd only; a bare `X=1` sets it for what follows.
  let k = 0
  const local = new Map<string, string | undefined>()
  while (k < values.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(values[k]!.text) && cmd.words[k]!.parts[0]?.kind === 'lit') {
    const v = values[k]!
    const eq = v.text.indexOf('=')
    local.set(v.text.slice(0, eq), v.dynamic ? undefined : v.text.slice(eq + 1))
    k++
  }
  if (k === values.length) {
    for (const [name, value] of local) st.assigned.set(name, value)
    return
  }
  values = values.slice(k)
  // Wrappers: read the command they start.
  for (;;) {
    const name = baseName(values[0]!.text)
    const wrap = WRAPPERS[name]
    if (wrap === undefined || values.length < 2) break
    const skip = wrap(values.slice(1))
    if (1 + skip >= values.length) return
    values = values.slice(1 + skip)
  }
  const heredocs = cmd.redirs.filter((r) => r.body !== undefined).map((r) => r.body!)
  analyseCommand(values, cmd, heredocs, st)
}

function baseName(text: string): string {
  const slash = text.lastIndexOf('/')
  return slash < 0 ? text : text.slice(slash + 1)
}

/** `cyrene` sub-commands that only read; every other one may write as the person. */
const CYRENE_READS: Record<string, Set<string> | true> = {
  doctor: true,
  help: true,
  memory: new Set(['list', 'show', 'search', 'recall', 'log', 'check', 'help']),
  volume: new Set(['show']),
  settings: new Set(['get', 'show', 'list']),
  worldbook: new Set(['list']),
  whale: new Set(['render', 'conformance']),
}

/** The words after the program when this command runs the cyrene command line, else undefined. */
function cyreneArgs(name: string, args: Value[]): Value[] | undefined {
  if (name === 'cyrene' || name === 'cyrene.js') return args
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'deno') {
    const script = args.findIndex((a) => !a.text.startsWith('-'))
    return script >= 0 && /(^|\/)cyrene(\.js)?$/.test(args[script]!.text) ? args.slice(script + 1) : undefined
  }
  if (name === 'npx' || name === 'pnpx' || name === 'bunx') {
    const at = args.findIndex((a) => !a.text.startsWith('-'))
    return at >= 0 && /^(cyrene|dsh-cyrene-philia093-0)(@.*)?$/.test(args[at]!.text) ? args.slice(at + 1) : undefined
  }
  if (name === 'npm' || name === 'pnpm' || name === 'yarn') {
    const run = args.findIndex((a) => a.text === 'run' || a.text === 'run-script' || a.text === 'exec')
    if (run >= 0 && args[run + 1]?.text === 'cyrene') return args.slice(run + 2).filter((a) => a.text !== '--')
  }
  return undefined
}

/** Whether a cyrene command line only reads (its sub-command and verb are in CYRENE_READS, no --out). */
function cyreneReadsOnly(args: Value[]): boolean {
  const words = args.filter((a) => !a.text.startsWith('-'))
  if (args.some((a) => a.dynamic || a.text === '--out' || a.text.startsWith('--out='))) return false
  const [sub, verb] = words.map((w) => w.text)
  if (sub === undefined) return true
  const reads = CYRENE_READS[sub]
  if (reads === true) return true
  if (reads === undefined) return false
  // A family without a verb prints its help (`cyrene memory`) or shows (`cyrene volume`).
  return verb === undefined || reads.has(verb)
}

function analyseCommand(values: Value[], cmd: Simple, heredocs: string[], st: State): void {
  const head = values[0]!
  const name = head.dynamic ? UNKNOWN : baseName(head.text)
  const args = values.slice(1)
  const cyrene = cyreneArgs(name, args)
  if (cyrene !== undefined) {
    // Known: it reads, or it writes as the person; either way not an unknown program.
    if (!cyreneReadsOnly(cyrene)) st.out.asPerson.push(values.map((v) => v.text).join(' '))
    return
  }
  const pipelineText = () => cmd.pipeline.flatMap((c) => c.words).map((w) => valueOf(w, st))

  if (name === 'cd' || name === 'pushd') return cd(args, st)
  if (name === 'popd') {
    st.cwds = union(st.cwds, [UNKNOWN])
    return
  }
  if (name === 'eval') return analyseScript(args.map((a) => a.text).join(' '), st)
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') {
    // `export D=~/.dsh/…` names a folder for what follows, like a bare assignment.
    for (const a of operands(args)) {
      const eq = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(a.text)
      if (eq !== null) st.assigned.set(eq[1]!, a.dynamic ? undefined : eq[2])
    }
    return
  }
  if (SHELLS.has(name)) {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a.text))
    if (c >= 0 && args[c + 1] !== undefined) return analyseScript(args[c + 1]!.text, st)
    const script = operands(args)[0]
    if (script === undefined) {
      // Reads its commands from stdin: a heredoc we can read, or a pipe we cannot.
      if (heredocs.length > 0) return heredocs.forEach((h) => analyseScript(h, st))
      return unsure(st, `${name} reading commands from a pipe`, mentionsOf(pipelineText(), st))
    }
    return unsure(st, `${name} running a script file`, mentionsOf(args, st, heredocs))
  }
  if (READ_ONLY.has(name)) return
  if (CHANGES_OPERANDS.has(name)) {
    // Operands and option values: `mv -t 元/ x`, `ln -s /elsewhere 元/x`, `install -D x 元/y`.
    addWrites(st, [...operands(args), ...optionValues(args, /^-[tSTg]$/)])
    return
  }
  if (CHANGES_LAST.has(name)) {
    // Links (`cp -l`, `cp -s`) make a second name for a store file; `rsync --remove-source-files`
    // removes what it copied: everything they name is changed then.
    const links = name === 'cp' && args.some((a) => /^-[a-zA-Z]*[ls]/.test(a.text) || a.text === '--link' || a.text === '--symbolic-link')
    if (links || args.some((a) => a.text === '--remove-source-files' || a.text === '--move')) {
      addWrites(st, operands(args))
      return
    }
    const ops = operands(args)
    addWrites(st, [...ops.slice(-1), ...optionValues(args, /^-t$/)])
    return
  }
  switch (name) {
    case 'dd':
      addWrites(
        st,
        args.filter((a) => a.text.startsWith('of=')).map((a) => ({ ...a, text: a.text.slice(3) })),
      )
      return
    case 'sed':
    case 'gsed':
      return sedLike(args, st, /^-[a-zA-Z]*i|^--in-place/, /(^|[;{}\s/])w\s*\S|\/w\s*\S/)
    case 'perl':
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a.text))) return addWrites(st, operands(args))
      return unsure(st, 'perl', mentionsOf(args, st, heredocs))
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      if (args.some((a, i) => a.text === 'inplace' && args[i - 1]?.text === '-i')) return addWrites(st, operands(args).slice(1))
      if (args.some((a) => /[>|]|system|close\(/.test(a.text))) return unsure(st, `${name} with output or system()`, mentionsOf(args, st))
      return
    case 'sort':
      addWrites(st, optionValues(args, /^-o$/))
      return
    case 'uniq':
    case 'xxd':
      addWrites(st, operands(args).slice(1, 2))
      return
    case 'iconv':
    case 'yq':
      addWrites(st, optionValues(args, /^-o$/))
      if (name === 'yq' && args.some((a) => /^-[a-zA-Z]*i/.test(a.text))) addWrites(st, operands(args).slice(1))
      return
    case 'curl':
      addWrites(st, optionValues(args, /^-o$|^--output$/))
      if (args.some((a) => /^-[a-zA-Z]*O/.test(a.text) || a.text === '--remote-name')) addWrites(st, [insideOf(undefined)])
      return
    case 'wget': {
      const named = optionValues(args, /^-O$|^--output-document$/)
      const dirs = optionValues(args, /^-P$|^--directory-prefix$/)
      addWrites(st, named.length > 0 ? named : [insideOf(dirs[0])])
      return
    }
    case 'tar':
    case 'bsdtar':
      return tarLike(args, st)
    case 'unzip':
    case '7z':
    case '7za':
    case 'cpio':
    case 'unrar': {
      const dest = optionValues(args, /^-d$|^-o$/)
      addWrites(st, [insideOf(dest[0]), ...dest])
      return
    }
    case 'find':
      return findLike(args, st)
    case 'xargs':
      return xargsLike(args, cmd, st)
    case 'git':
      return gitLike(args, st)
    case 'python':
    case 'python2':
    case 'python3':
    case 'node':
    case 'nodejs':
    case 'deno':
    case 'bun':
    case 'ruby':
    case 'php':
    case 'lua':
    case 'Rscript':
    case 'osascript':
    case 'pwsh':
    case 'powershell':
      if (operands(args).length === 0 && heredocs.length === 0 && !args.some((a) => /^-[ce]$|^--eval$/.test(a.text)))
        return unsure(st, `${name} reading a program from a pipe`, mentionsOf(pipelineText(), st))
      return unsure(st, name, mentionsOf(args, st, heredocs))
    default:
      return unsure(st, name === UNKNOWN ? 'a command built at run time' : `${name} (not a command the guard knows)`, mentionsOf(values, st, heredocs))
  }
}

function sedLike(args: Value[], st: State, inPlace: RegExp, writeCmd: RegExp): void {
  if (args.some((a) => inPlace.test(a.text))) {
    // The script is an operand too; as a path it names nothing in the store.
    addWrites(st, operands(args))
    return
  }
  if (args.some((a) => writeCmd.test(a.text))) unsure(st, 'sed with a w command', mentionsOf(args, st))
}

function tarLike(args: Value[], st: State): void {
  const first = args[0]?.text ?? ''
  const cluster = (a: Value) => /^-?[A-Za-z]+$/.test(a.text) && !a.text.startsWith('--')
  const extract =
    args.some((a) => (cluster(a) && /x/.test(a.text)) || a.text === '--extract' || a.text === '--get') || (!first.startsWith('-') && /x/.test(first))
  const dir = optionValues(args, /^-C$|^--directory$/)
  let archive: Value | undefined
  const fi = args.findIndex((a) => cluster(a) && a.text.includes('f'))
  if (fi >= 0) archive = args[fi + 1]
  archive ??= optionValues(args, /^--file$/)[0]
  if (extract) {
    addWrites(st, [insideOf(dir[0]), ...operands(args).filter((o) => o !== archive)])
    return
  }
  if (archive !== undefined) addWrites(st, [archive])
}

function findLike(args: Value[], st: State): void {
  const firstExpr = args.findIndex((a) => a.text.startsWith('-') || a.text === '(' || a.text === '!')
  const roots = (firstExpr < 0 ? args : args.slice(0, firstExpr)).filter((a) => !a.text.startsWith('-'))
  const rootValues = roots.length > 0 ? roots : [{ text: '.', dynamic: false, glob: false }]
  addWrites(st, optionValues(args, /^-fprint0?$|^-fprintf$|^-fls$/))
  if (args.some((a) => a.text === '-delete')) addWrites(st, rootValues)
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!.text)) continue
    const end = args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'))
    const inner = args.slice(i + 1, end < 0 ? args.length : end)
    const innerName = inner[0] === undefined ? '' : baseName(inner[0].text)
    if (READ_ONLY.has(innerName)) continue
    // What `{}` will be is only known at run time: every file below the roots may be changed.
    addWrites(st, rootValues)
    unsure(st, `find -exec ${innerName}`, mentionsOf(inner, st))
  }
}

function xargsLike(args: Value[], cmd: Simple, st: State): void {
  let i = 0
  while (i < args.length && args[i]!.text.startsWith('-')) i += /^-[IdEnLPsa]$/.test(args[i]!.text) ? 2 : 1
  const inner = args.slice(i)
  const innerName = inner[0] === undefined ? 'echo' : baseName(inner[0].text)
  if (READ_ONLY.has(innerName)) return
  // Its operands arrive through the pipe: whatever the pipeline names may be changed.
  const pipeline = cmd.pipeline.flatMap((c) => c.words).map((w) => valueOf(w, st))
  unsure(st, `xargs ${innerName}`, mentionsOf(pipeline, st))
  if (inner.length > 0) analyseCommand(inner, cmd, [], st)
}

const GIT_READ = new Set(
  'status log diff show blame grep ls-files ls-tree rev-parse describe shortlog cat-file rev-list reflog whatchanged help version --version config-get'.split(
    ' ',
  ),
)

function gitLike(args: Value[], st: State): void {
  let i = 0
  const dirs: Value[] = []
  while (i < args.length && args[i]!.text.startsWith('-')) {
    if (args[i]!.text === '-C' && args[i + 1] !== undefined) dirs.push(args[++i]!)
    i++
  }
  const sub = args[i]?.text ?? ''
  if (GIT_READ.has(sub)) return
  // A git command that changes the work tree changes files inside it; the ones it names are changed.
  addWrites(st, [insideOf(dirs[0]), ...operands(args.slice(i + 1))])
}

// ---------------------------------------------------------------- structure

/** Pipelines followed by `&&`: what comes after them runs only when they succeeded. */
const andThen = new WeakSet<Simple[]>()

function splitCommands(tokens: Token[]): Simple[][] {
  const pipelines: Simple[][] = []
  let pipeline: Simple[] = []
  let current: Simple = { words: [], redirs: [], pipeline }
  const finish = () => {
    if (current.words.length > 0 || current.redirs.length > 0) pipeline.push(current)
    current = { words: [], redirs: [], pipeline }
  }
  const finishPipeline = () => {
    finish()
    if (pipeline.length > 0) pipelines.push(pipeline)
    pipeline = []
    current = { words: [], redirs: [], pipeline }
  }
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!
    if (tok.t === 'op') {
      if (tok.op === '|' || tok.op === '|&') finish()
      else {
        if (tok.op === '&&') andThen.add(pipeline)
        finishPipeline()
      }
      continue
    }
    if (tok.t === 'redir') {
      const next = tokens[i + 1]
      const target = next?.t === 'word' ? next.w : undefined
      if (target !== undefined) i++
      current.redirs.push(tok)
      if (target !== undefined) (tok as { target?: Word }).target = target
      continue
    }
    // Reserved words of compound commands start a new command; their own words are not commands.
    const text = tok.w.parts.map((p) => (p.kind === 'lit' ? p.text : UNKNOWN)).join('')
    if (current.words.length === 0 && /^(if|then|else|elif|fi|do|done|while|until|for|in|case|esac|function|select|[{}!]|\{|\}|\[\[|\]\]|time)$/.test(text)) {
      if (text === 'for' || text === 'select' || text === 'case') {
        // `for x in a b; do`: skip to the `do`/`in` list, which names no command.
        while (i + 1 < tokens.length && !(tokens[i + 1]!.t === 'op')) i++
      }
      continue
    }
    current.words.push(tok.w)
  }
  finishPipeline()
  return pipelines
}

function analyseScript(src: string, st: State): void {
  if (st.depth > 8) {
    unsure(st, 'commands nested too deeply to follow', textPaths(src, st))
    return
  }
  const inner: State = { ...st, depth: st.depth + 1 }
  const { tokens, subs } = lex(src)
  for (const sub of subs) analyseScript(sub, inner)
  const mentionWords = tokens.flatMap((t) => (t.t === 'word' ? [valueOf(t.w, inner)] : []))
  const bodies = tokens.flatMap((t) => (t.t === 'redir' && t.body !== undefined ? [t.body] : []))
  for (const pipeline of splitCommands(tokens)) {
    for (const cmd of pipeline) {
      for (const r of cmd.redirs) {
        const target = (r as { target?: Word }).target
        if (target === undefined) continue
        if (r.op === '<<' || r.op === '<<-' || r.op === '<' || r.op === '<<<') continue
        const v = valueOf(target, inner)
        if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(v.text)) continue
        if (r.op === '<&') continue
        inner.out.writes.push(...pathsOf(v, inner))
      }
      inner.certainCd = pipeline.length === 1 && andThen.has(pipeline)
      if (cmd.words.length > 0) analyseSimple(cmd, inner)
      inner.certainCd = false
      const hereString = cmd.redirs.find((r) => r.op === '<<<')
      if (hereString !== undefined && cmd.words[0] !== undefined && SHELLS.has(baseName(valueOf(cmd.words[0], inner).text))) {
        const target = (hereString as { target?: Word }).target
        if (target !== undefined) analyseScript(valueOf(target, inner).text, inner)
      }
    }
  }
  // Resolved against every folder the line may have been in by its end (the first one included).
  inner.out.scriptMentions.push(...mentionsOf(mentionWords, inner, bodies))
  st.cwds = inner.cwds
}

/**
 * Read a bash command line: what it would change and what it names while
 * doing something this reader cannot follow. `cwd` undefined = the folder is
 * not known (a persistent shell): relative paths then keep only their text.
 */
export function readShellCommand(command: string, cwd: string | undefined, env: ShellEnv): ShellReading {
  const out: ShellReading = { writes: [], unsureMentions: [], unsureCwds: [], unsureWhy: [], scriptMentions: [], asPerson: [] }
  const st: State = { env, cwds: [cwd ?? UNKNOWN], assigned: new Map(), out, depth: 0 }
  analyseScript(command, st)
  return out
}

/**
 * Free program text (an interpreter's program, a `run_code` or workflow
 * script): everything it names, all unsure, since any of it may be opened
 * for writing.
 */
export function readProgramText(text: string, cwd: string | undefined, env: ShellEnv, why: string): ShellReading {
  const out: ShellReading = { writes: [], unsureMentions: [], unsureCwds: [], unsureWhy: [], scriptMentions: [], asPerson: [] }
  const st: State = { env, cwds: [cwd ?? UNKNOWN], assigned: new Map(), out, depth: 0 }
  unsure(st, why, textPaths(text, st))
  return out
}

/** The marker of a runtime part in `PathRef.text`, for the guard's name checks. */
export const RUNTIME_PART = UNKNOWN

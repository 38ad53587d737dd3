/**
 * A conservative, pure reading of a bash command line for the store guard
 * (`guard/service.ts`): which paths the command would change, and which
 * paths it merely names while doing something this reader cannot follow (an
 * interpreter, an unknown program, `xargs`). It touches no file: the guard
 * resolves and classifies the paths it returns. It is not a bash parser and
 * does not try to be one; where it cannot tell, it says "unsure" so the guard
 * can refuse when a protected path is named (CONTRACT#store-guard lists what it
 * cannot see).
 */
import { lex, type Token, type Word } from './shell-lex.ts'
import {
  CHANGES_LAST,
  CHANGES_OPERANDS,
  cyreneArgs,
  cyreneReadsOnly,
  findLike,
  gitLike,
  READ_ONLY,
  sedLike,
  SHELLS,
  tarLike,
  WRAPPERS,
} from './shell-programs.ts'
import { UNKNOWN, type ShellEnv, type ShellReading } from './shell-types.ts'
import {
  addWrites,
  baseName,
  cd,
  insideOf,
  mentionsOf,
  operands,
  optionValues,
  pathsOf,
  textPaths,
  union,
  unsure,
  valueOf,
  type State,
  type Value,
} from './shell-words.ts'

export type { PathRef, ShellEnv, ShellReading } from './shell-types.ts'
export { expandBraces } from './shell-words.ts'

interface Simple {
  words: Word[]
  redirs: (Token & { t: 'redir' })[]
  /** The pipeline this command is part of, for commands that read their paths from stdin. */
  pipeline: Simple[]
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

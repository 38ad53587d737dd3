import { addWrites, baseName, insideOf, mentionsOf, operands, optionValues, skipOptions, unsure, type State, type Value } from './shell-words.ts'

/** What the store guard knows of programs: which only read, which change their operands, which start another command, and how a few well-known ones write. */

/** Commands that change nothing by themselves (their redirections are still read). */
export const READ_ONLY = new Set(
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
export const CHANGES_OPERANDS = new Set(
  (
    'rm rmdir unlink touch mkdir mkfifo mknod chmod chown chgrp chattr setfacl truncate tee shred gzip gunzip ' +
    'bzip2 bunzip2 xz unxz lzma zstd unzstd compress uncompress sponge ed ex vi vim nvim nano pico emacs mcedit ' +
    'joe micro kak hx setfattr xattr rename prename file-rename fallocate split csplit patch install mv ln zip ' +
    'mktemp link srm wipe trash trash-put gio'
  ).split(' '),
)

/** Commands that write their last operand (or `-t DIR`); the other operands are read. */
export const CHANGES_LAST = new Set(['cp', 'rsync', 'scp', 'rclone'])

/** Programs that only start another command: the rest of the line is read as that command. */
export const WRAPPERS: Record<string, (args: Value[]) => number> = {
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

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox'])

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
export function cyreneArgs(name: string, args: Value[]): Value[] | undefined {
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
export function cyreneReadsOnly(args: Value[]): boolean {
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

export function sedLike(args: Value[], st: State, inPlace: RegExp, writeCmd: RegExp): void {
  if (args.some((a) => inPlace.test(a.text))) {
    // The script is an operand too; as a path it names nothing in the store.
    addWrites(st, operands(args))
    return
  }
  if (args.some((a) => writeCmd.test(a.text))) unsure(st, 'sed with a w command', mentionsOf(args, st))
}

export function tarLike(args: Value[], st: State): void {
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

export function findLike(args: Value[], st: State): void {
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

const GIT_READ = new Set(
  'status log diff show blame grep ls-files ls-tree rev-parse describe shortlog cat-file rev-list reflog whatchanged help version --version config-get'.split(
    ' ',
  ),
)

export function gitLike(args: Value[], st: State): void {
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

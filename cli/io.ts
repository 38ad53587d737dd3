import type { Lang } from '../i18n/index.ts'
import { isClosedPipe } from './failures.ts'

/** What a `cyrene` sub-command may touch of the outside world; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  /** Standard input, read whole, for commands that take `-`: bytes, so invalid UTF-8 can be refused rather than replaced. */
  readStdin?: () => Promise<string | Uint8Array>
  /** The person's language for this invocation (cli/lang.ts); zh when not set. */
  lang?: Lang
  /** The whole command line, handed down by `run` to a command that runs another one in this process (whale conformance runs this cyrene's `whale`). */
  run?: SubCommand
}

/** A sub-command: takes the words after its name, returns the exit code. */
export type SubCommand = (argv: string[], io: CliIO) => Promise<number>

/**
 * The real process. A reader that goes away (`cyrene memory list | head -1`)
 * closes the pipe: further output is dropped quietly and the command finishes
 * what it was doing (never cut off between a write and its report).
 * `failed` holds an output error that is not a closed pipe (a full disk behind `>`).
 */
export function processIO(): CliIO & { failed: () => NodeJS.ErrnoException | undefined } {
  const open = { stdout: true, stderr: true }
  let failure: NodeJS.ErrnoException | undefined
  const writer = (name: 'stdout' | 'stderr') => {
    const stream = process[name]
    stream.on('error', (e: NodeJS.ErrnoException) => {
      open[name] = false
      if (!isClosedPipe(e)) failure ??= e
    })
    return (t: string) => {
      if (!open[name]) return
      try {
        stream.write(t)
      } catch (e) {
        open[name] = false
        if (!isClosedPipe(e)) failure ??= e as NodeJS.ErrnoException
      }
    }
  }
  return {
    stdout: writer('stdout'),
    stderr: writer('stderr'),
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const c of process.stdin) chunks.push(c as Buffer)
      return Buffer.concat(chunks)
    },
    failed: () => failure,
  }
}

/** An in-memory `CliIO` for in-process runs (`cyrene whale conformance`, tests): the output is kept as text. */
export function memoryIO(env: NodeJS.ProcessEnv, cwd: string, stdin?: string): CliIO & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return {
    stdout: (t) => {
      out += t
    },
    stderr: (t) => {
      err += t
    },
    env,
    cwd,
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
    out: () => out,
    err: () => err,
  }
}

/** Refusals carry an exit code and a message that says what to do. */
export class CliError extends Error {
  readonly code: number
  /** The same refusal in English: what a `--json` report carries, whatever the person's language (decision 075). */
  readonly english: string
  constructor(message: string, code = 2, english = message) {
    super(message)
    this.code = code
    this.english = english
  }
}

/** A refusal worded in the person's language, its English kept beside it for `--json`. */
export function saidRefusal(said: (lang: Lang) => string, lang: Lang, code = 2): CliError {
  return new CliError(said(lang), code, said('en'))
}

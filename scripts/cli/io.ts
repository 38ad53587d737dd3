/** What a `cyrene` sub-command may touch of the outside world; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  /** Standard input, read whole, for commands that take `-`. */
  readStdin?: () => Promise<string>
}

/** A sub-command: takes the words after its name, returns the exit code. */
export type SubCommand = (argv: string[], io: CliIO) => Promise<number>

export function processIO(): CliIO {
  return {
    stdout: (t) => { process.stdout.write(t) },
    stderr: (t) => { process.stderr.write(t) },
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const c of process.stdin) chunks.push(c as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
  }
}

/** Refusals carry an exit code and a message that says what to do. */
export class CliError extends Error {
  readonly code: number
  constructor(message: string, code = 2) {
    super(message)
    this.code = code
  }
}

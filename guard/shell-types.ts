/** What the store guard's reading of a bash command line returns (guard/shell.ts). */

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
   * (CONTRACT#cli-commands), so the model may not run it to change the store.
   */
  asPerson: string[]
}

export interface ShellEnv {
  home: string | undefined
  /** Variables whose value the guard knows (DSH_HOME, HOME…). */
  vars: Record<string, string | undefined>
}

export const UNKNOWN = '\u0000'
/** The name that stands for an entry a command creates inside a folder. */
export const NEW_ENTRY = '.cyrene-guard-new-entry'

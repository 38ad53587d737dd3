/**
 * What whale/ tells a person, as a code and the values it names (decision
 * 085): whale/ is a pure library and imports no catalogue, so the caller that
 * knows the person's language words it (`i18n/whale-said.ts`, key
 * `whale.said.<code>`). The English sentence beside it stays for `--json`,
 * logs and the conformance cases, byte for byte.
 */
export interface WhaleSaid {
  readonly code: string
  readonly params?: Readonly<Record<string, string | number | WhaleSaid>>
}

/** Every refusal whale/ throws: its English message, and the said another language words it by. */
export class WhaleError extends Error {
  readonly said: WhaleSaid
  constructor(message: string, code: string, params?: WhaleSaid['params']) {
    super(message)
    this.said = params === undefined ? { code } : { code, params }
  }
}

/** A report's notes (an import's): the English lines, and their saids in the same order. */
export class WhaleNotes {
  readonly en: string[] = []
  readonly said: WhaleSaid[] = []
  add(en: string, code: string, params?: WhaleSaid['params']): void {
    this.en.push(en)
    this.said.push(params === undefined ? { code } : { code, params })
  }
}

/**
 * What memory/ tells a person, as a code and the values it names (decisions
 * 081, 082): memory/ imports no catalogue, so the layer that knows the
 * person's language words it (`i18n/store-said.ts`, key `store.<code>`). A
 * param may be a said itself (what a field is, one problem of a list), worded
 * in the same language as the sentence around it; a list is one line each.
 * The English sentence memory/ also builds (an error's message, a finding's
 * `message`) stays for logs, `--json` and the model.
 */
export interface Said {
  readonly code: string
  readonly params?: SaidParams
}
type SaidParam = string | number | Said | readonly Said[]
export type SaidParams = Readonly<Record<string, SaidParam>>

/** A field or thing a message is about: its English words, and how another language names it. */
export interface What {
  readonly en: string
  readonly said: Said
}

/** A field of the format named by its key (`reason`, `consequence.self`): the same in every language. */
function fieldWhat(field: string): What {
  return { en: field, said: { code: 'part.field', params: { field } } }
}

export function whatOf(what: string | What): What {
  return typeof what === 'string' ? fieldWhat(what) : what
}

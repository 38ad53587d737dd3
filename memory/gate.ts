import { AXES, CONSEQUENCE_SCALES, SOURCED_KINDS, type Entry, type EntryMeta } from './entry.ts'

/**
 * The five-virtue gate (CONTRACT#gate) as a pure function. It never throws and
 * never refuses: a failing entry is still kept, in 余页/待定/. Refusals (size,
 * `base` by the model, bad characters) happen before the gate, in validate.ts.
 */
export interface GateResult {
  gate: 'day' | 'pending'
  reasons: string[]
}

function nonEmpty(v: unknown): boolean {
  return typeof v === 'string' && v.trim() !== ''
}

/** Why an entry stays in 余页/待定, as a code a caller's catalogue words (memory/ imports none); `kind` names the entry's kind. */
export type GateProblem = { code: 'axis' | 'reason-missing' | 'reason-lines' | 'consequence' } | { code: 'source'; kind: string }

function gateProblems(meta: EntryMeta): GateProblem[] {
  const problems: GateProblem[] = []
  if (typeof meta.axis !== 'string' || !(AXES as readonly string[]).includes(meta.axis)) problems.push({ code: 'axis' })
  if (!nonEmpty(meta.reason)) problems.push({ code: 'reason-missing' })
  else if ((meta.reason as string).includes('\n')) problems.push({ code: 'reason-lines' })
  const kind = meta.kind ?? ''
  if (SOURCED_KINDS.includes(kind)) {
    const hasIds = Array.isArray(meta.src_ids) && meta.src_ids.some(nonEmpty)
    if (!nonEmpty(meta.src_quote) && !hasIds) problems.push({ code: 'source', kind })
  }
  if (kind === 'decision') {
    const c = meta.consequence
    const has = c !== undefined && c !== null && typeof c === 'object' && CONSEQUENCE_SCALES.some((k) => nonEmpty((c as Record<string, unknown>)[k]))
    if (!has) problems.push({ code: 'consequence' })
  }
  return problems
}

/** The English sentence of a problem: what the model reads from memory_write and what 余页/待定 files keep as pending_reasons. */
function sentence(p: GateProblem): string {
  switch (p.code) {
    case 'axis':
      return 'rule 2: axis must be one of 德/智/体/美/劳'
    case 'reason-missing':
      return 'rule 2: a one-line reason for the axis is required'
    case 'reason-lines':
      return 'rule 2: the axis reason must be one line'
    case 'source':
      return `rule 1: a ${p.kind} needs src_quote or src_ids (where it came from)`
    case 'consequence':
      return 'rule 3: a decision needs at least one consequence (self/other/relation/world/future)'
  }
}

export function gateReasons(meta: EntryMeta): string[] {
  return gateProblems(meta).map(sentence)
}

/** A kept sentence (pending_reasons of a file, a write's reasons) back to its problem; undefined for one this gate does not write. */
export function gateProblemOf(text: string): GateProblem | undefined {
  const source = /^rule 1: a (\S+) needs src_quote or src_ids \(where it came from\)$/.exec(text)
  if (source !== null) return { code: 'source', kind: source[1]! }
  for (const code of ['axis', 'reason-missing', 'reason-lines', 'consequence'] as const) if (sentence({ code }) === text) return { code }
  return undefined
}

export function gate(entry: Entry): GateResult {
  const reasons = gateReasons(entry.meta)
  return { gate: reasons.length === 0 ? 'day' : 'pending', reasons }
}

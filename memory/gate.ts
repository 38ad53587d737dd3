import { AXES, CONSEQUENCE_SCALES, SOURCED_KINDS, type Entry, type EntryMeta } from './entry.ts'

/**
 * The five-virtue gate (contract §6) as a pure function. It never throws and
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

export function gateReasons(meta: EntryMeta): string[] {
  const reasons: string[] = []
  if (typeof meta.axis !== 'string' || !(AXES as readonly string[]).includes(meta.axis)) {
    reasons.push('rule 2: axis must be one of 德/智/体/美/劳')
  }
  if (!nonEmpty(meta.reason)) reasons.push('rule 2: a one-line reason for the axis is required')
  else if ((meta.reason as string).includes('\n')) reasons.push('rule 2: the axis reason must be one line')
  const kind = meta.kind ?? ''
  if (SOURCED_KINDS.includes(kind)) {
    const hasIds = Array.isArray(meta.src_ids) && meta.src_ids.some(nonEmpty)
    if (!nonEmpty(meta.src_quote) && !hasIds) reasons.push(`rule 1: a ${kind} needs src_quote or src_ids (where it came from)`)
  }
  if (kind === 'decision') {
    const c = meta.consequence
    const has = c !== undefined && c !== null && typeof c === 'object' && CONSEQUENCE_SCALES.some((k) => nonEmpty((c as Record<string, unknown>)[k]))
    if (!has) reasons.push('rule 3: a decision needs at least one consequence (self/other/relation/world/future)')
  }
  return reasons
}

export function gate(entry: Entry): GateResult {
  const reasons = gateReasons(entry.meta)
  return { gate: reasons.length === 0 ? 'day' : 'pending', reasons }
}

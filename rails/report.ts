import type { MirrorReport } from './section-mirror.ts'
import type { WorldbookNote } from '../worldbook/index.ts'

export type { WorldbookNote }

/**
 * What the rails did on the latest Cyrene assembly, kept here for the doctor
 * (rails/doctor.ts): the 4,000 pass, the section mirror, the worldbook rail
 * and its hits. One report per host service: the rows of one DSH run share
 * its `cyreneMemory`, and a test that boots several hosts in one process keeps
 * them apart. No service (a bare spine), no report: nothing is kept. The
 * map is kept on `globalThis`, like the form pins (rails/voice-state.ts), so
 * the runtime row and the doctor's command see one map however they were loaded.
 */

/** What the 4,000 budget pass did (rails/pass.ts). */
export interface VoiceNote {
  at: string
  total: number
  budget: number
  blocks: { id: string; chars: number; cut: number; why?: string }[]
  /** Problems with the voice texts (forms/styles files) or settings, one line each. */
  problems: string[]
}

/** What the section mirror did. `kind`: DSH's own guidance (carried whole) or another section (bounded); `text`: the section's chars, `chars`: the framed block's. */
export interface MirrorNote extends MirrorReport {
  at: string
}

export interface RailsReport {
  voice?: VoiceNote | undefined
  mirror?: MirrorNote | undefined
  worldbook?: WorldbookNote | undefined
}

const REPORTS_KEY = Symbol.for('dsh-cyrene-philia093-0/rails-report')

function reportsMap(): WeakMap<object, RailsReport> {
  const slot = globalThis as unknown as Record<symbol, WeakMap<object, RailsReport> | undefined>
  return (slot[REPORTS_KEY] ??= new WeakMap())
}

/** cordis hands each context its own proxy of a service (`ctx.get`); the service itself sits behind this key. */
const CORDIS_ORIGINAL = Symbol.for('cordis.original')

function serviceItself(service: object): object {
  return ((service as Record<symbol, unknown>)[CORDIS_ORIGINAL] as object | undefined) ?? service
}

/** The latest report kept for `service` (the host service), empty when none was. */
export function railsReport(service: object | undefined): RailsReport {
  return (service === undefined ? undefined : reportsMap().get(serviceItself(service))) ?? {}
}

function keep(service: object | undefined, part: Partial<RailsReport>): void {
  if (service === undefined) return
  const reports = reportsMap()
  const key = serviceItself(service)
  reports.set(key, { ...reports.get(key), ...part })
}

export function notePass(service: object | undefined, report: Omit<VoiceNote, 'at'>): void {
  keep(service, { voice: { at: new Date().toISOString(), ...report } })
}

export function noteMirror(service: object | undefined, report: MirrorReport): void {
  keep(service, { mirror: { at: new Date().toISOString(), ...report } })
}

export function noteWorldbook(service: object | undefined, note: WorldbookNote): void {
  keep(service, { worldbook: note })
}

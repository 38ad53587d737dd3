import path from 'node:path'
import { isRecord } from './json.ts'
import { MEMORY_KIND, normaliseKind, type InboxEntry } from './inbox.ts'

/**
 * Sink routes (spec §6): confirmed entries of a non-memory kind are appended
 * to a file instead of entering the prompt. This file is pure: it computes
 * routes and lines; files.ts does the appending.
 */
type SinkFormat = 'md' | 'plain' | 'jsonl'

export interface SinkRoute {
  kind: string
  /** The target as configured, joined to the config dir when relative; used for display, logs and I/O. */
  path: string
  format: SinkFormat
  template: string
  header: string
  createParents: boolean
}

const FORMATS: readonly SinkFormat[] = ['md', 'plain', 'jsonl']

function formatOf(value: unknown): SinkFormat {
  const wanted = typeof value === 'string' ? value.trim().toLowerCase() : ''
  return (FORMATS as readonly string[]).includes(wanted) ? (wanted as SinkFormat) : 'md'
}

/** Relative targets live under the config dir; absolute ones are taken as written. */
function targetPath(configDir: string, configured: string): string {
  return path.isAbsolute(configured) || /^[A-Za-z]:[\\/]/.test(configured) ? configured : path.join(configDir, configured)
}

/** Valid routes by normalised kind. Bad shapes are dropped: better no route than a wrong target. */
export function sinkRoutes(sinks: Record<string, unknown>, configDir: string): Map<string, SinkRoute> {
  const routes = new Map<string, SinkRoute>()
  for (const [key, value] of Object.entries(sinks)) {
    const kind = normaliseKind(key)
    if (!kind || kind === MEMORY_KIND || !isRecord(value)) continue
    const configured = typeof value.path === 'string' ? value.path.trim() : ''
    if (!configured) continue
    routes.set(kind, {
      kind,
      path: targetPath(configDir, configured),
      format: formatOf(value.format),
      template: typeof value.template === 'string' ? value.template : '',
      header: typeof value.header === 'string' ? value.header : '',
      createParents: value.createParents !== false,
    })
  }
  return routes
}

/** The UTC calendar day of `at`; today when `at` is missing or not a date. */
export function utcDay(at: string, now: Date): string {
  const t = at ? Date.parse(at) : NaN
  return (Number.isFinite(t) ? new Date(t) : now).toISOString().slice(0, 10)
}

const PLACEHOLDER = /\{(text|date|kind|tag|source)\}/g

/** The line appended for one entry, without its newline. */
export function sinkLine(route: SinkRoute, entry: InboxEntry, source: string, now: Date): string {
  const text = entry.text.replace(/[\r\n]+/g, ' ')
  if (route.format === 'jsonl') {
    const record: Record<string, string> = { text, kind: route.kind }
    if (entry.tag) record.tag = entry.tag
    record.at = entry.at || now.toISOString()
    record.source = source
    return JSON.stringify(record)
  }
  const vars: Record<string, string> = { text, date: utcDay(entry.at, now), kind: route.kind, tag: entry.tag, source }
  const template = route.template || (route.format === 'plain' ? '{text}' : '- {text}（{date}）')
  return template.replace(PLACEHOLDER, (_, name: string) => vars[name] ?? '')
}

/** What goes into the file: the header (with exactly one final newline) before the first line only. */
export function appendedText(route: SinkRoute, line: string, targetExists: boolean): string {
  const header = !targetExists && route.header ? route.header.replace(/(\r?\n)*$/, '') + '\n' : ''
  return header + line + '\n'
}

/** Idempotency key (spec §6): kind + rendered line + target, the target compared case-insensitively. */
export function sinkKey(kind: string, line: string, target: string): string {
  return [kind, line, target.toLowerCase()].join('\u0000')
}

export interface SinkLogRecord {
  at: string
  kind: string
  path: string
  format: SinkFormat
  line: string
  bytes: number
  source: string
}

/**
 * Keys of every record of the sink log. `sameFile` maps a recorded path to
 * the form the caller compares targets in (the caller resolves both sides
 * against its working directory, so `out/a.md`, `./out/a.md` and the
 * absolute path name one target); by default paths compare as written.
 */
export function sinkLogKeys(logText: string, sameFile: (target: string) => string = (target) => target): Set<string> {
  const keys = new Set<string>()
  for (const raw of logText.split(/\r?\n/)) {
    if (!raw.trim()) continue
    try {
      const record = JSON.parse(raw) as unknown
      if (isRecord(record) && typeof record.line === 'string' && typeof record.path === 'string') {
        keys.add(sinkKey(normaliseKind(record.kind), record.line, sameFile(record.path)))
      }
    } catch {
      /* a damaged audit line does not stop the others */
    }
  }
  return keys
}

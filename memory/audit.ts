import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { appendLine, readTextOr } from './fsio.ts'
import { LAYOUT } from './paths.ts'
import type { StoreCore } from './store-core.ts'

/**
 * The audit log (CONTRACT#audit): one JSON line per change, in
 * 元/审计/<YYYY-MM>.jsonl, appended (never rewritten, never through a link).
 */
function auditDir(store: StoreCore): string {
  return join(store.root, LAYOUT.meta, '审计')
}

/** Appends one record; returns the month (YYYY-MM) of the file it went to. */
export async function audit(store: StoreCore, record: Record<string, unknown>): Promise<string> {
  const at = store.now()
  const month = at.toISOString().slice(0, 7)
  await appendLine(join(auditDir(store), `${month}.jsonl`), JSON.stringify({ at: at.toISOString(), ...record }), { root: store.root })
  return month
}

/** Audit records, oldest first; `fromMonth` (YYYY-MM) skips older month files. */
export async function auditLog(store: StoreCore, fromMonth = ''): Promise<Array<Record<string, unknown>>> {
  const dir = auditDir(store)
  let names: string[] = []
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl') && n.slice(0, 7) >= fromMonth).sort()
  } catch {
    return []
  }
  const out: Array<Record<string, unknown>> = []
  for (const n of names) {
    for (const line of (await readTextOr(store.root, join(dir, n), '')).split('\n')) {
      if (line.trim() === '') continue
      try {
        out.push(JSON.parse(line) as Record<string, unknown>)
      } catch {
        /* a torn last line after a crash */
      }
    }
  }
  return out
}

import { changeMarks, isForgedClaim, isPersonBase, claimsPerson, MARKS_REL } from '../memory/marks.ts'
import type { CliIO } from './io.ts'
import { say } from './help-text.ts'
import { guarded, oneLine, openStore, out, type StoreOptions } from './memory-shared.ts'

export interface MarksOptions extends StoreOptions {
  confirm?: string[]
  drop?: string[]
}

/**
 * `cyrene memory marks`: every entry whose comment claims the person, and
 * whether the record backs it; `--confirm` / `--drop` change the record
 * (a person's write: the store guard keeps the model from running it).
 */
export async function marksCommand(o: MarksOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  if ((o.confirm?.length ?? 0) + (o.drop?.length ?? 0) > 0) {
    const r = await guarded(io, () => changeMarks(store, { confirm: o.confirm ?? [], drop: o.drop ?? [] }))
    out(
      io,
      o.json,
      r,
      () =>
        `${say(io, 'store.marks.changed', { confirmed: r.confirmed.length > 0 ? r.confirmed.join(', ') : '-', dropped: r.dropped.length > 0 ? r.dropped.join(', ') : '-' })}\n`,
    )
    return 0
  }
  const { marks, problem } = store.marks()
  const { entries } = await store.scan()
  const rows = entries
    .filter((e) => claimsPerson(e.meta))
    .map((e) => ({ id: e.id, file: e.file, line: e.line, base: e.meta.base === true, state: isForgedClaim(marks, e) ? 'unbacked' : 'recorded', text: e.text }))
  const unbacked = rows.filter((r) => r.state === 'unbacked').length
  const summary = {
    record: MARKS_REL,
    ...(problem !== undefined ? { problem } : {}),
    ...(marks.migrated_at !== undefined ? { migrated_at: marks.migrated_at, migrated: marks.migrated } : {}),
    recorded: rows.length - unbacked,
    unbacked,
    base: entries.filter((e) => isPersonBase(marks, e)).length,
  }
  out(
    io,
    o.json,
    { ...summary, entries: rows },
    () =>
      [
        ...(problem !== undefined ? [`! ${problem}`] : []),
        ...rows.map(
          (r) =>
            `${say(io, r.state === 'recorded' ? 'store.marks.yours' : 'store.marks.unbacked')} ${say(io, r.base ? 'store.marks.base' : 'store.marks.notBase')}${r.id}  ${oneLine(r.text, 50)}`,
        ),
        say(io, 'store.marks.summary', { recorded: summary.recorded, base: summary.base, unbacked }) +
          (marks.migrated_at !== undefined ? say(io, 'store.marks.migratedNote', { n: marks.migrated ?? 0, date: marks.migrated_at.slice(0, 10) }) : ''),
        ...(unbacked > 0 ? [say(io, 'store.marks.hint')] : []),
      ].join('\n') + '\n',
  )
  return unbacked > 0 ? 1 : 0
}

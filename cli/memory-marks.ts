import { changeMarks, isForgedClaim, isPersonBase, claimsPerson, MARKS_REL } from '../memory/person-marks.ts'
import type { CliIO } from './io.ts'
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
    const r = await guarded(() => changeMarks(store, { confirm: o.confirm ?? [], drop: o.drop ?? [] }))
    out(
      io,
      o.json,
      r,
      () =>
        `recorded as yours: ${r.confirmed.length > 0 ? r.confirmed.join(', ') : '-'}; records removed: ${r.dropped.length > 0 ? r.dropped.join(', ') : '-'}\n`,
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
        ...rows.map((r) => `${r.state === 'recorded' ? 'yours   ' : 'UNBACKED'} ${r.base ? 'base ' : '     '}${r.id}  ${oneLine(r.text, 50)}`),
        `${summary.recorded} recorded as yours (${summary.base} base), ${unbacked} claimed without a record (treated as the model's)` +
          (marks.migrated_at !== undefined
            ? `; ${marks.migrated ?? 0} taken over from the comments once on ${marks.migrated_at.slice(0, 10)} (review them)`
            : ''),
        ...(unbacked > 0 ? ['If you wrote or edited one yourself: cyrene memory marks --confirm <id>'] : []),
      ].join('\n') + '\n',
  )
  return unbacked > 0 ? 1 : 0
}

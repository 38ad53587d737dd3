import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { conflictRecord, DRIVERS, mergeWith, type DriverName } from './git-merge.ts'

/**
 * The program git runs as a `merge=cyrene-*` driver: `git-driver <name> %O %A %B %P`.
 * It writes the merge into %A and exits 0; what both sides changed differently
 * becomes a record in 元/冲突/ of the merge's work tree (the person picks, never
 * a `<<<<<<<` in the file). Any failure exits 1: the sync then keeps ours and
 * records the whole file (git-sync.ts), so a broken driver loses nothing.
 */
function main(argv: string[]): number {
  const [name, basePath, oursPath, theirsPath, file = ''] = argv
  if (!(DRIVERS as readonly string[]).includes(name ?? '') || basePath === undefined || oursPath === undefined || theirsPath === undefined) {
    process.stderr.write('usage: git-driver <driver> %O %A %B %P\n')
    return 1
  }
  const read = (p: string): string => readFileSync(p, 'utf8')
  const newer = process.env.CYRENE_MERGE_NEWER === 'theirs' ? 'theirs' : 'ours'
  const result = mergeWith(name as DriverName, read(basePath), read(oursPath), read(theirsPath), { newer, file })
  const root = process.env.CYRENE_MERGE_ROOT
  if (result.conflicts.length > 0) {
    if (root === undefined || root === '') throw new Error('CYRENE_MERGE_ROOT is not set: nowhere to keep the conflict')
    const dir = join(root, '元', '冲突')
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    for (const c of result.conflicts) {
      const { id, text } = conflictRecord(file, c, process.env.CYRENE_MERGE_AT ?? new Date().toISOString())
      writeFileSync(join(dir, `${id}.json`), text, { mode: 0o600 })
    }
  }
  const notes = process.env.CYRENE_MERGE_NOTES
  if (notes !== undefined && notes !== '') for (const n of result.notes) appendFileSync(notes, `${JSON.stringify(n)}\n`, { mode: 0o600 })
  writeFileSync(oursPath, result.text)
  return 0
}

try {
  process.exitCode = main(process.argv.slice(2))
} catch (error) {
  process.stderr.write(`cyrene merge driver: ${(error as Error).message}\n`)
  process.exitCode = 1
}

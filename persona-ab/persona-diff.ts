import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** The folders whose change the A/B judges (versions.ts takes exactly these from the base ref). */
const JUDGED = ['persona', 'philosophy'] as const

/**
 * The persona change the report judges: a unified diff of persona/ and
 * philosophy/ from the base side to the change side, paths relative to the
 * package (`base/persona/chat.md`, `change/persona/chat.md`). `git diff
 * --no-index` compares two folders outside any repository; it exits 1 when
 * they differ, 0 when not. Empty when both sides are the same.
 */
export function personaDiff(baseDir: string, changeDir: string): string {
  const parts: string[] = []
  for (const folder of JUDGED) {
    const a = join(baseDir, folder)
    const b = join(changeDir, folder)
    if (!existsSync(a) && !existsSync(b)) continue
    const run = spawnSync('git', ['diff', '--no-index', '--no-color', '--no-ext-diff', '-U3', `--src-prefix=base/`, `--dst-prefix=change/`, a, b], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
    if (run.status !== 0 && run.status !== 1) throw new Error(`git diff --no-index ${folder}: ${run.stderr.trim() || `exit ${run.status}`}`)
    // git writes the folders' absolute paths after the prefixes: the package-relative path is what a reader needs.
    parts.push(run.stdout.split(a.slice(1)).join(folder).split(b.slice(1)).join(folder))
  }
  return parts.join('').trimEnd()
}

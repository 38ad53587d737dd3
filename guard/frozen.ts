import { spawnSync } from 'node:child_process'

/**
 * Files of the store the file system will not let anyone write: the immutable and append-only flags
 * (`chattr +i`, `+a`), which a process running as root can set. The guard does not see them change (no
 * file-watch event, only the inode's ctime), and a write to such a file is refused. Read with `lsattr`
 * (e2fsprogs); where it is missing or the file system keeps no flags, nothing is said.
 */

/** The paths `lsattr` lists with the `i` or `a` flag (its `.` and `..` entries left out). */
export function frozenIn(lsattrOutput: string): string[] {
  const out: string[] = []
  for (const line of lsattrOutput.split('\n')) {
    const m = /^(\S{10,}) (.+)$/.exec(line)
    if (m === null || /\/\.\.?$/.test(m[2]!)) continue
    if (m[1]!.includes('i') || m[1]!.includes('a')) out.push(m[2]!)
  }
  return out
}

/** The store's frozen files and folders, the root itself included; [] when `lsattr` cannot tell. */
export function frozenUnder(root: string): string[] {
  const run = (args: string[]): string => {
    const r = spawnSync('lsattr', args, { encoding: 'utf8', timeout: 10_000, maxBuffer: 64 * 1024 * 1024 })
    return r.error === undefined ? r.stdout : ''
  }
  return [...new Set([...frozenIn(run(['-d', '--', root])), ...frozenIn(run(['-R', '-a', '--', root]))])]
}

import { promises as fs, statSync } from 'node:fs'

/**
 * The one rule every cache of memory/ uses to tell whether a file changed
 * since it was read: its size and modification time (the catalogue of
 * store.ts, the recall keeper, the host's memory block). Two stamps are equal
 * exactly when both are; compare them with `===`.
 */
export type FileStamp = string

/** The stamp of a file already looked at (stat or lstat). */
export function stampOf(st: { mtimeMs: number; size: number }): FileStamp {
  return `${st.mtimeMs}:${st.size}`
}

/** The stamp of the file at `path` (stat: a link is followed), or undefined when it cannot be looked at. */
export async function fileStamp(path: string): Promise<FileStamp | undefined> {
  try {
    return stampOf(await fs.stat(path))
  } catch {
    return undefined
  }
}

/** `fileStamp` for synchronous readers (the host's memory block). */
export function fileStampSync(path: string): FileStamp | undefined {
  try {
    // Most files a step looks at do not exist (the newest days, overrides): no error built for those.
    const st = statSync(path, { throwIfNoEntry: false })
    return st === undefined ? undefined : stampOf(st)
  } catch {
    return undefined
  }
}

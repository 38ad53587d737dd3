import { closeSync, constants as C, fstatSync, openSync, readFileSync } from 'node:fs'

/**
 * A file's bytes, read only if it is a regular file when opened: never through a link, never waiting.
 * A path a tool call's process can reach may become a FIFO between a caller's lstat and its read (a
 * rename), and a blocking open of a FIFO stops the host's thread until someone writes to it. Throws
 * EINVAL for anything that is not a regular file. `follow`: a link to a regular file is read (a script a
 * command names), otherwise a link is refused (ELOOP). `maxBytes`: a larger file is refused (EFBIG)
 * unread, for a record that only a planted file could make large.
 */
export function readRegularFileSync(path: string, follow = false, maxBytes = Infinity): Buffer {
  const fd = openRegularSync(path, follow)
  try {
    if (fstatSync(fd).size > maxBytes) throw Object.assign(new Error(`${path} is larger than ${maxBytes} bytes`), { code: 'EFBIG' })
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * `path` opened for reading, as `readRegularFileSync` opens it, for a caller that reads it its own way (at
 * offsets, its tail) or checks something else while it is open; the descriptor is the caller's to close.
 */
export function openRegularSync(path: string, follow = false): number {
  const fd = openSync(path, C.O_RDONLY | C.O_NONBLOCK | (follow ? 0 : C.O_NOFOLLOW))
  try {
    if (!fstatSync(fd).isFile()) throw notRegularFile(path)
    return fd
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

/** The error for a path that is not a regular file when opened (EINVAL), as every reader here says it. */
export function notRegularFile(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path} is not a regular file`), { code: 'EINVAL' })
}

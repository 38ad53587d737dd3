import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, promises as fs, constants as C } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A real small file system for full-disk tests: `mount -t tmpfs -o size=…`.
 * Tests run as root; a mount that fails throws, so the test fails — it is
 * never skipped.
 */
export function mountTmpfs(size = '2m'): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(
      `could not mount a ${size} tmpfs at ${dir} (full-disk tests need root): ${(e as { stderr?: Buffer }).stderr?.toString().trim() ?? (e as Error).message}`,
      { cause: e },
    )
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'pipe' })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Fill the file system of `file`'s folder: write until ENOSPC, in shrinking
 * chunks so that not even one block is left. Then give back `leaveBytes`
 * (truncating the filler), so the next large write is cut short for real.
 * Returns the filler's size.
 */
export async function fillDisk(file: string, leaveBytes = 0): Promise<number> {
  const fh = await fs.open(file, C.O_WRONLY | C.O_CREAT | C.O_TRUNC, 0o600)
  let size = 0
  try {
    for (let chunk = 1 << 20; chunk >= 1; chunk >>= 1) {
      const buf = Buffer.alloc(chunk, 0x78)
      for (;;) {
        try {
          const { bytesWritten } = await fh.write(buf, 0, chunk, size)
          size += bytesWritten
          if (bytesWritten < chunk) break
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
          break
        }
      }
    }
    if (leaveBytes > 0) {
      size = Math.max(0, size - leaveBytes)
      await fh.truncate(size)
    }
  } finally {
    await fh.close()
  }
  return size
}

/** Bytes still free for an unprivileged writer on the file system of `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await fs.statfs(dir)
  return Number(s.bavail) * Number(s.bsize)
}

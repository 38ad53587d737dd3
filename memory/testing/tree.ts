import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { walkFiles } from '../fsio.ts'
import { isStoreFile } from '../fsio.ts'
import { MANIFEST_FILE, sha256 } from '../snapshots.ts'

/**
 * rel → SHA-256 of every store file under `dir`, without the audit log
 * (append-only, kept live by a restore), locks, temps and the manifest: what
 * "the store equals that snapshot" means in the restore tests.
 */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const rel of (await walkFiles(dir)).filter(isStoreFile).sort()) {
    if (rel === MANIFEST_FILE || rel.startsWith('元/审计/')) continue
    out[rel] = sha256(await fs.readFile(join(dir, rel)))
  }
  return out
}

import { join } from 'node:path'
import { packagePath } from '../host/package-root.ts'
import type { WorldbookFolder } from './library.ts'

/**
 * Where the worldbook lives (CONTRACT#worldbook): the starter entries shipped in the
 * package (`worldbook/starter/`, read-only, replaced by each upgrade) and the
 * person's own folder in the memory store (`<root>/世界书/`), which is theirs:
 * snapshotted with the store, counted in its quota, never written by the model
 * through Cyrene's tools.
 */
export const PERSON_FOLDER = '世界书'

export function starterFolder(): string {
  return packagePath('worldbook', 'starter')
}

/** The person's folder of a store root. */
function personFolder(storeRoot: string): string {
  return join(storeRoot, PERSON_FOLDER)
}

/** Both folders, starter first: a person's file of the same name wins. */
export function worldbookFolders(storeRoot: string | undefined): WorldbookFolder[] {
  const folders: WorldbookFolder[] = [{ source: 'starter', dir: starterFolder(), shipped: true }]
  if (storeRoot !== undefined) folders.push({ source: 'person', dir: personFolder(storeRoot) })
  return folders
}

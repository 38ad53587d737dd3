import { existsSync } from 'node:fs'
import { openVolume, type AbReview, type PersonaSource, type Volume } from '../memory/person.ts'
import { RefusedError } from '../memory/format.ts'
import type { MemoryStore } from '../memory/index.ts'
import { PACKAGE_ROOT } from './package-root.ts'
import { personaSourcesIn } from './persona-sources.ts'

/**
 * Opening a new volume (CONTRACT#volumes), the one implementation behind
 * `cyrene volume new` and `/cyrene new-volume confirm <reason>`: a person's
 * act, fingerprinting the persona files of a package folder exactly as the host
 * does, so a volume opened either way never reads as drift. A folder without
 * them is refused before anything is written.
 */
export async function newVolume(
  store: MemoryStore,
  input: { reason: string; confirm: string; ab?: (fingerprint: string) => AbReview },
  pkg: string = PACKAGE_ROOT,
): Promise<Volume> {
  const ab = input.ab === undefined ? {} : { ab: input.ab }
  return await openVolume(store, { reason: input.reason, confirm: input.confirm, sources: personaSourcesOf(pkg), ...ab }, { by: 'person' })
}

/** The persona files of a package folder, refused (nothing written) when one is missing. */
export function personaSourcesOf(pkg: string): PersonaSource[] {
  const sources = personaSourcesIn(pkg)
  const missing = sources.filter((s) => !existsSync(s.path)).map((s) => s.name)
  if (missing.length > 0)
    throw new RefusedError(
      'bad-input',
      `${pkg} has no ${missing.join(', ')}: --persona names a package folder holding ${sources.map((s) => s.name).join(', ')}`,
    )
  return sources
}

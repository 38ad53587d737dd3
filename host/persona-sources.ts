import { join } from 'node:path'
import type { PersonaSource } from '../memory/person.ts'
import { PACKAGE_ROOT } from './package-root.ts'

/**
 * The persona and the five virtues: what a volume's fingerprint covers
 * (CONTRACT#volumes), relative to a package folder. A fixed list, not a glob, so
 * files that only sit beside them (`persona/chat.legacy.md` from
 * `npm run extract-legacy`) are never part of the persona.
 */
const PERSONA_FILES = ['persona/chat.md', 'persona/work.md', 'philosophy/wuyu.md'] as const

/** The persona files of a package folder: the host's own, or the one `cyrene volume --persona` names. */
export function personaSourcesIn(packageFolder: string): PersonaSource[] {
  return PERSONA_FILES.map((rel) => ({ name: rel, path: join(packageFolder, rel) }))
}

/** This package's persona: what the host fingerprints at start and the doctor checks for drift. */
export const PERSONA_SOURCES: PersonaSource[] = personaSourcesIn(PACKAGE_ROOT)

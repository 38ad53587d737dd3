import type { PersonaSource } from '../memory/index.ts'
import { packagePath } from './package-root.ts'


/** The persona and the five virtues: what a volume's fingerprint covers (contract §7). */
export const PERSONA_SOURCES: PersonaSource[] = ['persona/chat.md', 'persona/work.md', 'philosophy/wuyu.md']
  .map((rel) => ({ name: rel, path: packagePath(rel) }))

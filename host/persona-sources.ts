import { volumeDrift, type MemoryStore, type PersonaSource } from '../memory/index.ts'
import { packagePath } from './package-root.ts'


/** The persona and the five virtues: what a volume's fingerprint covers (contract §7). */
export const PERSONA_SOURCES: PersonaSource[] = ['persona/chat.md', 'persona/work.md', 'philosophy/wuyu.md']
  .map((rel) => ({ name: rel, path: packagePath(rel) }))

/** A persona changed without a new volume is worth a doctor line (contract §7), never a failure. */
export async function personaDrift(store: MemoryStore): Promise<string[]> {
  try {
    const drift = await volumeDrift(store, PERSONA_SOURCES)
    return drift.drift ? [`the persona or the five virtues changed since volume ${drift.current ?? '?'} was opened: a person opens a new volume with \`cyrene volume new --reason … --confirm new-volume\``] : []
  } catch (error) {
    return [`volume check: ${(error as Error).message}`]
  }
}

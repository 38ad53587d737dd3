import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The host row's night switched off (`dream.enabled: false`: no schedule, no catch-up; `/dream`
 * still dreams on request). With the default 23:30, a host a test boots between 23:30 and
 * midnight finds tonight's dream due and dreams on its own in the middle of a test that never
 * asked for it; no other fixed time avoids that at every hour. Tests of the schedule drive their
 * own clock (night/*.test.ts) or ask for a time with `nightAt`.
 */
export function quietNightPatch(at?: string): { id: string; config: { dream: { enabled: boolean; at?: string } } } {
  return { id: 'cyrene-host', config: { dream: at === undefined ? { enabled: false } : { enabled: true, at } } }
}

/**
 * The same for a real `dsh` on `dshHome`: DSH's home patch layer (`$DSH_HOME/cordis.patch.yml`,
 * applied after the bundles), with any other host row config the test sets (the patch replaces
 * the row's whole config, so there is one patch for both). YAML reads the JSON written here.
 */
export function writeQuietNight(dshHome: string, hostConfig: Record<string, unknown> = {}): void {
  const patch = quietNightPatch()
  const row = { ...patch, config: { ...hostConfig, ...patch.config } }
  writeFileSync(join(dshHome, 'cordis.patch.yml'), `- ${JSON.stringify(row)}\n`)
}

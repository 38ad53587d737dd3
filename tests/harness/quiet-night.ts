import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The host row's night switched off (`dream.enabled: false`: no schedule, no catch-up; `/dream`
 * still dreams on request). With the default 23:30, a host a test boots between 23:30 and
 * midnight finds tonight's dream due and dreams on its own in the middle of a test that never
 * asked for it; no other fixed time avoids that at every hour. Tests of the schedule drive their
 * own clock (host/night/*.test.ts) or ask for a time with `nightAt`.
 */
export function quietNightPatch(at?: string): { id: string; config: { dream: { enabled: boolean; at?: string } } } {
  return { id: 'cyrene-host', config: { dream: at === undefined ? { enabled: false } : { enabled: true, at } } }
}

/** The same for a real `dsh` on `dshHome`: DSH's home patch layer (`$DSH_HOME/cordis.patch.yml`, applied after the bundles). */
export function writeQuietNight(dshHome: string): void {
  writeFileSync(join(dshHome, 'cordis.patch.yml'), '- id: cyrene-host\n  config:\n    dream:\n      enabled: false\n')
}

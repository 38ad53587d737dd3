/**
 * The night's DSH-free surface (CONTRACT#night): its doctor lines and state, and the dream registry
 * as the settings page shows and switches it. The command line and the doctor load this outside
 * DSH; the DSH registration (service, config, commands) is `row.ts`.
 */
export { doctorLines, recordLines } from './doctor.ts'
export type { DreamState } from './types.ts'
export { readDreamRegistry, setDreamSession, type DreamRegistryView } from './registry-view.ts'

/**
 * The store guard's DSH-free surface (CONTRACT#store-guard): its doctor lines and state, and the effects
 * check the benchmark drives. The command line and the doctor load this outside DSH; the DSH
 * registration is `row.ts`.
 */
export { doctorLines, frozenLine, putBackLine } from './doctor.ts'
export type { StoreGuardState } from './types.ts'
export { EffectsGuard } from './effects.ts'

// The recall room's door (docs/decisions/108): what the command line, the host, the rails and
// the benches use of recall. DSH-free. The pure index has its own door, `core/index.ts`.

export { RecallKeeper, ONE_SHOT_OPEN, dropRecallCache, keeperCacheFile } from './keeper.ts'
export type { RecalledEntry, RecallSilence } from './keeper.ts'
export { startLiveRecall, LocalRecall } from './live.ts'
export { RunningRecall } from './running.ts'
export type { RecallDoctorState } from './running.ts'
export { doctorLines } from './doctor.ts'
export { searchEntries } from './search.ts'
export { resemblingDayEntry } from './resembling.ts'
export { sourceLabel } from './sources.ts'

/** What `/cyrene doctor` shows of the running night (service.ts `doctorState()`), as plain data. */
export interface DreamState {
  enabled: boolean
  at: string
  nextWakeAt?: string | undefined
  tasks: string[]
  registryProblem?: string | undefined
  lastOutcome?: string | undefined
  lastError?: string | undefined
  snapshotError?: string | undefined
}

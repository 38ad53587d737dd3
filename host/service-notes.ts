import type { LiveAnswer, RecallSilence } from '../recall/index.ts'

/** What the doctor shows of the service's own work, beyond the engine and the index (HostServiceState's fields). */
export interface ServiceNoted {
  refreshError: string | undefined
  recallError: string | undefined
  recallSilence: RecallSilence | undefined
  recallWatch: string | undefined
}

/**
 * What the memory service noticed while it served the turns, kept for
 * `/cyrene doctor` only: the last failed refresh of `{{cyrene_memory}}`, the
 * last recall failure, why the latest recall found nothing, a file watcher
 * that cannot be trusted. Nothing reads these but the doctor, so they sit
 * here and not among the engine's state in host/service.ts (docs/decisions/094).
 */
export class ServiceNotes {
  private noted: ServiceNoted = { refreshError: undefined, recallError: undefined, recallSilence: undefined, recallWatch: undefined }

  /** A refresh of the block: undefined when it worked, else what failed. */
  refreshed(error: string | undefined): void {
    this.noted.refreshError = error
  }

  /** A recall answered: no failure now; why it was silent, if it was; whether every file had to be looked at because the watcher failed. */
  answered(answer: Pick<LiveAnswer, 'hits' | 'silence' | 'swept'>): void {
    this.noted.recallError = undefined
    this.noted.recallSilence = answer.hits.length === 0 ? (answer.silence ?? { reason: 'left-out', text: 'every hit was left out' }) : undefined
    // A watcher that failed makes every step look at every file: shown, not hidden.
    this.noted.recallWatch = answer.swept?.startsWith('file watching') === true ? answer.swept : undefined
  }

  /** A recall, or a levelling of the index, failed. */
  recallFailed(error: unknown): void {
    this.noted.recallError = (error as Error).message
  }

  state(): ServiceNoted {
    return { ...this.noted }
  }
}

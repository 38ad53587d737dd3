/** What every doctor line is, beneath every room's lines (doctor/report.ts prints them; host/doctor.ts gathers them). */

/** The areas, in the order the report shows them. */
export const DOCTOR_AREAS = ['memory', 'backup', 'recall', 'dream', 'voice', 'sync', 'guard', 'presets', 'worldbook', 'whale', 'plugins'] as const
export type DoctorArea = (typeof DOCTOR_AREAS)[number]

/** One doctor line: what was checked, how it stands, what to do. */
export interface DoctorLine {
  area: DoctorArea
  check: string
  status: 'ok' | 'warn' | 'fail' | 'missing'
  detail: string
  /** The area's row when every line of it is well (the first line of an area that has one). */
  summary?: string
  /** Details shown only by `--verbose` (one per line, under this line). */
  more?: string[]
}

/** Where the doctor looks: a DSH_HOME (from env), the working folder, and the store root when configured. */
export interface DoctorIO {
  env: NodeJS.ProcessEnv
  cwd: string
  rootDir?: string | undefined
}

/** An error as the sentence a doctor line shows. */
export function messageOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error)
}

/**
 * The doctor's ground floor (docs/decisions/091): what a doctor line is and how
 * the lines are printed. Every room's `doctor.ts` takes its types from here;
 * host/doctor.ts gathers the rooms' lines. It reaches no room above it.
 */
export { messageOf, type DoctorIO, type DoctorLine } from './line.ts'
export { doctorReport, doctorRows } from './report.ts'

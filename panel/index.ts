/**
 * The settings page's back end (README.md): routes under
 * `/dsh-cyrene-philia093-0/`, the pairing code, the answers the page shows.
 * This surface loads without DSH (the doctor reads it); the row
 * `cyrene-panel`, the package's main export, is panel/row.ts.
 */
export type { PanelPairing } from './pairing.ts'
export { doctorLines } from './doctor.ts'
export { pageLocaleOf } from './locale.ts'

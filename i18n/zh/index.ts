import { chatZh } from './chat.ts'
import { cliZh } from './cli.ts'
import { doctorZh } from './doctor.ts'

/** The Chinese catalogue: the source of every key. */
export const zh = { ...doctorZh, ...chatZh, ...cliZh } as const

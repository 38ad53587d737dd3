import { chatZh } from './chat.ts'
import { cliHelpZh } from './cli-help.ts'
import { cliRootZh } from './cli-root.ts'
import { cliZh } from './cli.ts'
import { doctorZh } from './doctor.ts'
import { presetsZh } from './presets.ts'

/** The Chinese catalogue: the source of every key. */
export const zh = { ...doctorZh, ...chatZh, ...cliZh, ...cliHelpZh, ...cliRootZh, ...presetsZh } as const

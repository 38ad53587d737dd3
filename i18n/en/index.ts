import type { Catalogue } from '../index.ts'
import { chatEn } from './chat.ts'
import { cliEn } from './cli.ts'
import { doctorEn } from './doctor.ts'

/** The English catalogue: every key of the Chinese one. */
export const en: Catalogue = { ...doctorEn, ...chatEn, ...cliEn }

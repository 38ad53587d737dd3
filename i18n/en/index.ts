import type { Catalogue } from '../catalogue.ts'
import { chatEn } from './chat.ts'
import { cliHelpEn } from './cli-help.ts'
import { cliHelpStoreEn } from './cli-help-store.ts'
import { cliHelpWhaleEn } from './cli-help-whale.ts'
import { cliRootEn } from './cli-root.ts'
import { cliEn } from './cli.ts'
import { cliStoreEn } from './cli-store.ts'
import { doctorEn } from './doctor.ts'
import { presetsEn } from './presets.ts'
import { recallEn } from './recall.ts'
import { reportsEn } from './reports.ts'
import { storeRefusalsEn } from './store-refusals.ts'
import { storeFindingsEn } from './store-findings.ts'
import { storeImportEn } from './store-import.ts'
import { cliFailuresEn } from './cli-failures.ts'
import { storeModulesEn } from './store-modules.ts'
import { whaleErrorsEn } from './whale-errors.ts'
import { whaleEn } from './whale.ts'
import { worldbookEn } from './worldbook.ts'

/** The English catalogue: every key of the Chinese one. */
export const en: Catalogue = {
  ...doctorEn,
  ...chatEn,
  ...cliEn,
  ...cliStoreEn,
  ...cliHelpEn,
  ...cliHelpWhaleEn,
  ...cliHelpStoreEn,
  ...cliRootEn,
  ...presetsEn,
  ...recallEn,
  ...reportsEn,
  ...storeRefusalsEn,
  ...storeFindingsEn,
  ...storeImportEn,
  ...cliFailuresEn,
  ...storeModulesEn,
  ...whaleErrorsEn,
  ...worldbookEn,
  ...whaleEn,
}

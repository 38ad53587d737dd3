import { chatZh } from './chat.ts'
import { cliHelpZh } from './cli-help.ts'
import { cliHelpStoreZh } from './cli-help-store.ts'
import { cliHelpWhaleZh } from './cli-help-whale.ts'
import { cliRootZh } from './cli-root.ts'
import { cliZh } from './cli.ts'
import { cliStoreZh } from './cli-store.ts'
import { doctorZh } from './doctor.ts'
import { presetsZh } from './presets.ts'
import { recallZh } from './recall.ts'
import { reportsZh } from './reports.ts'
import { storeRefusalsZh } from './store-refusals.ts'
import { storeFindingsZh } from './store-findings.ts'
import { storeImportZh } from './store-import.ts'
import { cliFailuresZh } from './cli-failures.ts'
import { storeModulesZh } from './store-modules.ts'
import { whaleErrorsZh } from './whale-errors.ts'
import { whaleZh } from './whale.ts'
import { worldbookZh } from './worldbook.ts'

/** The Chinese catalogue: the source of every key. */
export const zh = {
  ...doctorZh,
  ...chatZh,
  ...cliZh,
  ...cliStoreZh,
  ...cliHelpZh,
  ...cliHelpWhaleZh,
  ...cliHelpStoreZh,
  ...cliRootZh,
  ...presetsZh,
  ...recallZh,
  ...reportsZh,
  ...storeRefusalsZh,
  ...storeFindingsZh,
  ...storeImportZh,
  ...cliFailuresZh,
  ...storeModulesZh,
  ...whaleErrorsZh,
  ...worldbookZh,
  ...whaleZh,
} as const

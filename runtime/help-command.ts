import { t, tKey, type Lang, type MessageKey } from '../i18n/index.ts'
import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene help`: every row of the sub-command table (usage and summary, as
 * each feature wrote them), then the other commands Cyrene's presets have.
 * It reads the table when asked, so a row added anywhere shows up here.
 */
const OTHER_COMMANDS: ReadonlyArray<readonly [usage: MessageKey, summary: MessageKey]> = [
  ['help.memory.usage', 'help.memory.summary'],
  ['help.memorySearch.usage', 'help.memorySearch.summary'],
  ['help.memoryShow.usage', 'help.memoryShow.summary'],
  ['help.memoryCapture.usage', 'help.memoryCapture.summary'],
  ['help.dream.usage', 'help.dream.summary'],
]

export function helpRow(table: () => readonly CyreneSubcommand[]): CyreneSubcommand {
  return {
    name: 'help',
    usage: 'help.help.usage',
    summary: 'help.help.summary',
    run: (_ctx, _args, _agent, lang) => ({ kind: 'success', text: helpText(table(), lang) }),
  }
}

function helpText(rows: readonly CyreneSubcommand[], lang: Lang): string {
  return [
    t('help.title', lang),
    ...rows.map((r) => `/cyrene ${tKey(r.usage, lang)} — ${tKey(r.summary, lang)}`),
    ...OTHER_COMMANDS.map(([usage, summary]) => `${tKey(usage, lang)} — ${tKey(summary, lang)}`),
    t('help.cli', lang),
  ].join('\n')
}

import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene help`: every row of the sub-command table (usage and summary, as
 * each feature wrote them), then the other commands Cyrene's presets have.
 * It reads the table when asked, so a row added anywhere shows up here.
 */
const OTHER_COMMANDS = [
  ['/memory', '昔涟的记忆：条目数、最新几条、待定数'],
  ['/memory <要找的内容>', '在记忆里查找'],
  ['/memory show <id>', '看一条记忆的全文与来历'],
  ['/memory capture on|off|status', '本会话的 whale-persona 候选收口（不是昔涟的记忆开关）'],
  ['/dream', '现在做一次夜梦'],
] as const

export function helpRow(table: () => readonly CyreneSubcommand[]): CyreneSubcommand {
  return {
    name: 'help',
    usage: 'help',
    summary: '列出全部命令和用法',
    run: () => ({ kind: 'success', text: helpText(table()) }),
  }
}

function helpText(rows: readonly CyreneSubcommand[]): string {
  return [
    '昔涟 · 新卷 的命令（只在昔涟的两个预设里有）：',
    ...rows.map((r) => `/cyrene ${r.usage} — ${r.summary}`),
    ...OTHER_COMMANDS.map(([usage, summary]) => `${usage} — ${summary}`),
    '命令行里还有 cyrene（cyrene --help）。',
  ].join('\n')
}

import type { cliZh } from '../zh/cli.ts'

/** The `cyrene` command line, in English. */
export const cliEn: { readonly [K in keyof typeof cliZh]: string } = {
  'cli.lang.bad': '--lang takes zh or en, not {value}: for example cyrene doctor --lang en.',
  'cli.date.bad': '{option} takes a day that exists, written YYYY-MM-DD, not {value}: for example {option} 2026-03-01.',
  'cli.date.order': '--from {from} is after --to {to}, so nothing could be listed: swap the two days (--from {to} --to {from}).',
  'cli.axis.bad': '--axis is one of the five virtues: {axes}, not {value}. For example --axis 德 --reason "why it is worth keeping". Nothing was written.',
  'cli.write.gateHint':
    'to have it in the day files, write it again with a virtue and a reason, e.g. cyrene memory write "…" --axis 德 --reason "…" ({id} stays in 余页/待定, re-checked monthly)',
  'cli.write.written': 'written {id} → {file}',
  'cli.write.kept': 'kept {id} in {file}: it did not pass the five-virtue gate yet',
  'cli.write.resembles': 'resembles {id} ({date}): {text} — both are kept; see `cyrene memory show {id}`',
  'cli.list.one': '{n} entry',
  'cli.list.count': '{n} entries',
  'cli.list.problems': '; {n} unreadable comment(s) — run `cyrene memory check`',
  'cli.list.pendingRecord':
    'cyrene memory: {problem}, so the re-check counts are not shown. Fix it by hand or restore it (cyrene restore --list) before the next re-check, which refuses until then.',
  'cli.whale.empty': '(empty — this segment does not appear in the system prompt)',
  'cli.error.frame': '{said}. Usage: {path} {usage}. Run `{path} --help` for the options.',
  'cli.error.hint': ' (Did you mean {suggestion}?)',
  'cli.error.command': 'command',
  'cli.error.subCommand': 'sub-command',
  'cli.error.unknownCommand': 'unknown {what} "{name}"{hint}. Run `{path} --help` for the list.',
  'cli.error.noSubCommand': 'give a sub-command ({names}). Run `{path} --help` for the list.',
  'cli.error.unknownOption': "Unknown option '{option}'{hint}",
  'cli.error.missingValue': "Option '{option}' argument missing",
  'cli.error.ambiguous': "Option '{option}' argument is ambiguous: did you forget its value? For a value that starts with a dash write {option}={value}",
}

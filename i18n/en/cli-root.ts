import type { cliRootZh } from '../zh/cli-root.ts'

/** `cyrene --help` itself, the families' one-line summaries and the help layout's own words, in English. */
export const cliRootEn: { readonly [K in keyof typeof cliRootZh]: string } = {
  'cli.about': 'cyrene — 昔涟 · 新卷 command line',
  'cli.afterHelp': `
Language: --lang zh|en (any command), else LC_ALL / LC_MESSAGES / LANG, else zh.
Where the memory is: --root DIR, else DSH_HOME, else the DSH home of the profile you are in (the
working directory, then where this cyrene is installed: <home>/profiles/<name>/), else ~/.dsh.
Add --help after a command for its options.

Exit status:
  0   success
  1   a check found a problem (or \`memory show\` found no such entry)
  2   input refused — the message says why; nothing was changed
  3   the system refused: disk full (ENOSPC, EDQUOT), permission denied (EACCES, EPERM),
      read-only file system (EROFS), a file-size limit (EFBIG), an I/O error, or a folder where
      a file belongs (or the reverse); the message names the path and what to do, and says what was changed
  70  an internal error: a bug in cyrene (CYRENE_DEBUG=1 shows where it happened)
A reader that closes the output early (\`cyrene memory list | head -1\`) is not an error.`,
  'cli.family.doctor': 'the state of this DSH_HOME, one line per area: memory, snapshots, dreams, worldbook, whale-persona, presets',
  'cli.family.memory': 'the memory store: list, show, write, search, recall, log, check, import, export, reindex',
  'cli.family.backup': 'take a snapshot of the memory store now',
  'cli.family.restore': 'restore the memory store from a snapshot',
  'cli.family.volume': 'volumes (卷): show, or open a new one (a person only)',
  'cli.family.migrate': 'import memories from the retired plugins or a whale-persona inbox',
  'cli.family.settings': "the person's choices for every session: nickname (how she addresses you), style (道韵 level)",
  'cli.family.sync': 'send what changed in the memory store to SiYuan now; sync git: one memory on every machine through git',
  'cli.family.whale': 'whale-persona v1: render, presets (with character cards in and out), inbox, conformance, reflex',
  'cli.family.worldbook': 'the worldbook (世界书): list the entries, import SillyTavern World Info',
  'cli.doctor': `the state of this DSH_HOME outside a chat, one line per area (memory, snapshots, dreams, worldbook,
whale-persona, presets, retired plugins); every warning says what to do. --verbose shows each
check under its area: engine, quotas, limits, volume, base-preset rows, reflex rules. Reads only;
exit 1 when something fails. In the language of --lang, else LANG, else zh.`,
  'cli.doctor.verbose': 'every check under its area (which sections, which rows)',
  'cli.memory.after':
    "\nEvery command: --json (machine output), --root DIR (instead of DSH_HOME), --quiet (no progress).\nWrites from this command line are a person's writes.",
  'cli.memory.when': `
--at WHEN: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.sss]] with optional Z or ±HH:MM
  (local time without one); years 1000–9999.`,
  'cli.restore.details': `
The whole snapshot is checked first (checksums, or the format of older snapshots marked "unverified"); a damaged
or edited snapshot is refused and nothing changes. Then the current state is saved as a pre-restore snapshot and
the store is switched over so that even a crash leaves the old store or the restored one. Quit DSH first.`,
  'cli.title.Usage:': 'Usage:',
  'cli.title.Options:': 'Options:',
  'cli.title.Commands:': 'Commands:',
  'cli.title.Arguments:': 'Arguments:',
  'cli.title.Global Options:': 'Global Options:',
  'cli.default': ' (default: {value})',
  'cli.sharedUnused': 'Also accepted, unused here (kept for older scripts): {flags}',
  'cli.helpOption': 'display help for command',
}

import type { cliHelpStoreZh } from '../zh/cli-help-store.ts'

/** `cyrene settings|sync|worldbook --help` (and `memory recheck --scope`), in English. */
export const cliHelpStoreEn: { readonly [K in keyof typeof cliHelpStoreZh]: string } = {
  'cli.settings': `the person's choices kept in 元/settings.json for every session:
  nickname  how she addresses you (rail 120 and {{user_nickname}}; at most {max} characters)
  style     the 道韵 level (rail 130), one of the levels in 元/styles.md or the shipped voice/styles.md
Every other key of the file is kept as it is. A running DSH uses a change from its next message.`,
  'cli.settings.get': 'print a key (exit 1 when it is not set)',
  'cli.settings.set': 'save a key (refused with exit 2 when the value does not fit; nothing is changed then)',
  'cli.settings.set.value': 'the value (words are joined by one space)',
  'cli.settings.unset': 'remove a key (back to the default)',
  'cli.sync': `send what changed in the memory store to SiYuan now (one document per store file; needs siyuan.enabled
in 元/settings.json and the token in the environment variable siyuan.tokenEnv names, SIYUAN_API_TOKEN by default).
Exit 1 when SiYuan did not take everything: what is left waits for the next run (retried with backoff
only when SiYuan could not be reached; read-only mode, HTTP 401/403 or a closed notebook wait for you),
and a file SiYuan refused is named and set aside until it changes. A document deleted in SiYuan is
made again.
\`cyrene sync git\` replicates the store through git instead (one memory on every machine).`,
  'cli.sync.git': `one git sync with your other machines: commit what changed here (one commit listing the entries written),
fetch, merge with cyrene's own merge (never a conflict marker in a file; what both machines changed differently
waits for you in \`cyrene memory check\`), push. The store becomes a git work tree on first use. The remote is
--remote URL (saved as git.remote in 元/settings.json) or git.remote; credentials come from git's credential
helpers (one git or a keyring ships, or root owns; the global git config is not read otherwise),
an ssh key or the environment, never from the address. Exit 1 when the remote could not be reached
or took nothing (your writes stay committed here and go at the next sync).`,
  'cli.sync.git.remote': 'the remote to sync through (a bare repository path, ssh or https); saved in 元/settings.json',
  'cli.sync.git.gc': 'pack the history in .git/ now (the doctor says when it has grown past the store quota)',
  'cli.worldbook': 'the worldbook (世界书): starter entries in the package, yours in <root>/世界书/',
  'cli.worldbook.after': `
Entries are markdown files with a small front matter (title, keys, secondary_keys, secondary_logic,
constant, priority, enabled, match_whole_words, case_sensitive); edit them with any editor, DSH uses
the change at the next step.
A file of yours with the same name as a starter entry replaces it; one with only "enabled: no"
in its front matter switches it off.`,
  'cli.worldbook.list': 'the entries in force (yours over the starter ones), and files skipped with the reason',
  'cli.worldbook.import': `SillyTavern World Info → entry files in <root>/世界书/; a file already there is never overwritten.
Says per entry what was kept, split and not carried: keys, secondary keys and logic, constant, order,
disable, comment, content, matchWholeWords (absent: SillyTavern's default, substring) and caseSensitive
are kept, a /pattern/flags key as a regular expression (one needing look-ahead or back-references dropped); position/depth become the rail 140 (constant) or the pre-step hit block (keyword); probability,
scan depth, groups, timed effects, recursion and the book's scan_depth/token_budget are named as not
carried. An entry longer than its block (560 constant, 800 keyword, frame included) is split at line
breaks, or written switched off with its size when one paragraph alone is too long. On and off are read as
SillyTavern reads them (disable == true, a truthy constant, a card book's enabled, @@activate or
@@dont_activate atop the text). A file with no entry to
write is refused (exit 2) and makes nothing; an import whose every entry finds a link or a folder at its
place writes nothing and exits 2.`,
  'cli.worldbook.import.file': 'a World Info JSON exported from SillyTavern, or a character card (JSON or PNG) with a character_book',
  'cli.worldbook.import.dryRun': 'say what would be written, write nothing',
  'cli.memory.recheck.scope': 'month or year',
}

import type { worldbookZh } from '../zh/worldbook.ts'

/** The SillyTavern World Info import's notes, refusals and field reasons (worldbook/import-notes.ts codes), in English. */
export const worldbookEn: { readonly [K in keyof typeof worldbookZh]: string } = {
  'worldbook.note.regex-key': "key {key} is a pattern only by the entry's use_regex (not written /…/), which SillyTavern does not read as one; dropped",
  'worldbook.note.pattern-unsupported': 'key {key} is a pattern the worldbook cannot run (its engine has no look-ahead, back-references and the like); dropped',
  'worldbook.note.macros-kept':
    "{macros}: SillyTavern fills these in with the character's and your names; here the model reads them as written (edit the file to say the names)",
  'worldbook.note.regex-secondary-key':
    "secondary key {key} is a pattern only by the entry's use_regex (not written /…/), which SillyTavern does not read as one; dropped",
  'worldbook.note.secondary-pattern-unsupported':
    'secondary key {key} is a pattern the worldbook cannot run (its engine has no look-ahead, back-references and the like); dropped',
  'worldbook.note.secondary-off': 'secondary keys dropped: selective is off in the source',
  'worldbook.note.logic-unknown': 'selectiveLogic {value} is unknown; AND ANY used',
  'worldbook.note.logic-never':
    "selectiveLogic {value} is none of SillyTavern's 0–3, so there an entry with secondary keys never comes in: written switched off (enabled: no), its secondary_logic {logic}; set enabled: yes to use it",
  'worldbook.note.decorator-activate':
    'its text starts with @@activate, which SillyTavern reads as "always in": written as a constant entry, the line taken out of the text',
  'worldbook.note.decorator-dont-activate':
    'its text starts with @@dont_activate, which SillyTavern reads as "never in": written switched off (enabled: no), the line taken out of the text',
  'worldbook.note.position-outlet':
    'position 7 is the outlet {name}: SillyTavern puts it in no prompt, only where a {{outlet::…}} macro asks for it, and nothing here asks: written switched off (enabled: no); set enabled: yes to have it come in as any entry does',
  'worldbook.note.position-nowhere':
    "position {value} is none of SillyTavern's 0–7, so there the entry was read but put in no prompt: written switched off (enabled: no); set enabled: yes to use it",
  'worldbook.note.probability-never':
    'probability {value} with useProbability on: SillyTavern rolls for it and it never passes, so it never came in there: written switched off (enabled: no); set enabled: yes to use it',
  'worldbook.note.decorators-dropped': 'taken out of the text as SillyTavern takes them out, with no effect there or here: {lines}',
  'worldbook.note.no-keys': 'no plain keys left and not constant: written switched off (enabled: no); add keys to use it',
  'worldbook.note.no-secondary-keys':
    'its secondary keys were all regular expressions and it needs one of them to match ({logic}): without them it would come in on its primary keys alone, so it is written switched off (enabled: no); add plain secondary keys to use it',
  'worldbook.note.split-rail':
    'split: {chars} characters as shown, and the constant rail (140) holds {cap} characters with its frame: cut at line breaks into {parts} parts (same keys and priority; each comes in when there is room)',
  'worldbook.note.split-hits':
    'split: {chars} characters as shown, and a keyword hit block holds {cap} characters with its frame: cut at line breaks into {parts} parts (same keys and priority; each comes in when there is room)',
  'worldbook.note.too-long-rail':
    'refused: {chars} characters as shown, and one paragraph alone does not fit (the constant rail (140) holds {cap} characters with its frame); written switched off (enabled: no) — shorten it to {room} characters and switch it on',
  'worldbook.note.too-long-hits':
    'refused: {chars} characters as shown, and one paragraph alone does not fit (a keyword hit block holds {cap} characters with its frame); written switched off (enabled: no) — shorten it to {room} characters and switch it on',
  'worldbook.note.no-content': 'no content: nothing to show the model',
  'worldbook.note.not-an-entry': 'not an entry object',
  'worldbook.note.match-constant': 'constant: always in rail 140, keys not needed',
  'worldbook.note.match-keys': '{how} ({whole}), {cased} ({casedFrom})',
  'worldbook.note.match-keys-patterns': '{how} ({whole}), {cased} ({casedFrom}); /…/ keys as patterns, by their own flags',
  'worldbook.note.match-whole': 'non-CJK keys as whole words',
  'worldbook.note.match-substring': 'keys as substrings ("beast" in "beasts")',
  'worldbook.note.match-cased': 'case as written',
  'worldbook.note.match-any-case': 'any case',
  'worldbook.note.match-default': "absent: SillyTavern's default",
  'worldbook.note.match-field': '{field}',
  'worldbook.note.position': '{where} in SillyTavern; here {place}',
  'worldbook.note.position-0': 'before the character definitions',
  'worldbook.note.position-1': 'after the character definitions',
  'worldbook.note.position-2': "at the top of the author's note",
  'worldbook.note.position-3': "at the bottom of the author's note",
  'worldbook.note.position-4': 'at a depth in the chat',
  'worldbook.note.position-5': 'at the top of the example messages',
  'worldbook.note.position-6': 'at the bottom of the example messages',
  'worldbook.note.position-7': 'in an outlet, shown only where a macro asks for it',
  'worldbook.note.position-unknown': 'an unknown position',
  'worldbook.note.place-rail': 'a constant entry stands in rail 140, before the conversation',
  'worldbook.note.place-hits': 'a keyword entry comes in the pre-step hit block, just before the step',
  'worldbook.note.depth-at': 'how deep in the chat it goes at position 4; here {place}',
  'worldbook.note.depth-unused': 'SillyTavern uses it only at position 4 (at a depth), so it had no effect there either',
  'worldbook.note.role-at': 'the message role at position 4; here the worldbook is always a system-side data block',
  'worldbook.note.role-unused': 'SillyTavern uses it only at position 4; no effect',
  'worldbook.note.probability-ignored': 'not honoured: it comes in every time its keys match (no dice)',
  'worldbook.note.probability-off': 'useProbability is off, so it had no effect there either',
  'worldbook.note.scan-depth': "its own scan depth: here the keys are looked for in the person's last 1–3 messages (worldbook.recentMessages) for every entry",
  'worldbook.note.group': 'inclusion groups: every entry that matches comes in, by priority',
  'worldbook.note.groups-not-kept': 'inclusion groups are not kept',
  'worldbook.note.timed': 'timed effects are not kept: an entry is in a step when its keys match in that step',
  'worldbook.note.no-recursion-calls': "no recursion here: an entry's text never calls up other entries",
  'worldbook.note.no-recursion': 'no recursion here',
  'worldbook.note.vectorized': 'no vector matching: only its keys call it up',
  'worldbook.note.automation': 'no automations here',
  'worldbook.note.character-filter': 'no character filter: there is one companion',
  'worldbook.note.triggers': 'no generation-type triggers: it may come in at every step',
  'worldbook.note.ignore-budget': 'the hit block keeps its {cap}-character cap for every entry',
  'worldbook.note.outlet': 'no outlets: the entry goes where its kind goes',
  'worldbook.note.match-elsewhere': "keys are looked for only in the person's messages",
  'worldbook.note.order-not-number': 'not a number: the entry gets the default priority, {priority}',
  'worldbook.note.v2-priority': "the v2 book's own priority (SillyTavern orders by insertion_order, and so does this import)",
  'worldbook.note.unknown-field': 'a field the worldbook does not know: not carried',
  'worldbook.note.other-format-dropped': "what SillyTavern's import of a {format} leaves behind too",
  'worldbook.note.book-novelai': 'NovelAI lorebook',
  'worldbook.note.book-agnai': 'Agnai memory book',
  'worldbook.note.book-risu': 'RisuAI lorebook',
  'worldbook.note.book-scan-depth': "here the keys are looked for in the person's last 1–3 messages (worldbook.recentMessages)",
  'worldbook.note.book-token-budget': "here the caps are {rail} characters for constant entries (rail 140) and {hits} for a step's keyword hits",
  'worldbook.note.book-name': 'the entries are files in 世界书/; the book has no name of its own',
  'worldbook.note.not-carried': 'not carried',
  'worldbook.note.format-not-object': 'this is not a SillyTavern World Info file: expected a JSON object with "entries"',
  'worldbook.note.format-card-no-book':
    'this character card has no character_book, so it holds no World Info (its persona imports with `cyrene whale presets import`)',
  'worldbook.note.format-card-book-elsewhere':
    'this character card has no character_book where SillyTavern reads one (data.character_book); it has one at {at}, which SillyTavern does not use either: move it to data.character_book (or export the card again from SillyTavern with its world embedded) and import again',
  'worldbook.note.format-book-not-object': 'its character_book is not an object',
  'worldbook.note.format-no-entries':
    'this is not a SillyTavern World Info file: it has no "entries" object (export the world from SillyTavern\'s World Info panel)',
  'worldbook.note.format-other-no-entries':
    'this file is marked as a {format} but has no "{list}" list of entries (SillyTavern cannot convert it either): export the lorebook again from that program and import the new file',
  'cli.worldbook.list.yours': 'yours: {dir}',
  'cli.worldbook.list.starter': 'starter: {dir}',
  'cli.worldbook.list.constant': 'constant',
  'cli.worldbook.list.keys': 'keys {keys}{secondary}',
  'cli.worldbook.list.secondary': ' ({logic} {keys})',
  'cli.worldbook.list.entry': '{mark} {name} [{source}{over}] priority {priority}: {state}',
  'cli.worldbook.list.over': ', over the starter one',
  'cli.worldbook.list.off': 'switched off',
  'cli.worldbook.list.skipped': 'skipped {file}: {why}',
  'cli.worldbook.list.warning': 'warning {file}: {why}',
  'cli.worldbook.giveFile': 'give the World Info file (or card, lorebook) to import. Usage: {usage}',
  'cli.worldbook.cannotRead': 'cannot read {file}: {error}; nothing was written',
  'cli.worldbook.binary':
    "{file} is neither JSON nor a PNG card (an image in another format, or another binary file); nothing was written. Export the world from SillyTavern's World Info panel, or the character as a PNG or JSON card, and import that.",
  'cli.worldbook.notJson': "{file} is not valid JSON ({error}); nothing was written. Export the world again from SillyTavern's World Info panel.",
  'cli.worldbook.pngTooBig': '{file} is larger than {max} bytes; nothing was written',
  'cli.worldbook.charxUnreadable': '{file}: cannot read the CharX card: {error}; nothing was written',
  'cli.worldbook.pngUnreadable': '{file}: cannot read the PNG card: {error}; nothing was written',
  'cli.worldbook.folderLink':
    '{folder} is a symbolic link; the worldbook never follows links. Put the folder itself there (move the files it points to into a real folder of that name), then import again; nothing was written',
  'cli.worldbook.nothing': '{file}: no entry to import ({n} entries without text or not entries at all); nothing was written',
  'cli.worldbook.notWorld': '{file}: {why}; nothing was written',
  'cli.worldbook.isLink': '{rel} is a symbolic link; the worldbook never writes through one: put the file itself there (or remove the link) and import again',
  'cli.worldbook.notPlain': '{rel} is not a plain file; move it away and import again',
  'cli.worldbook.noneWritten':
    'nothing was written: {n} entries are refused by what stands at their place in 世界书/ (named above); fix those and import again',
}

import type { whaleErrorsZh } from '../zh/whale-errors.ts'

/** whale/'s own refusals and import notes in English: its sentences, byte for byte (decision 085). */
export const whaleErrorsEn: { readonly [K in keyof typeof whaleErrorsZh]: string } = {
  'whale.said.png.inflate-limit':
    'the PNG\'s compressed card text inflates past {max} bytes in all, so it is not read; export the card again (one "chara" or "ccv3" chunk) or import its JSON',
  'whale.said.png.inflate': 'a compressed text chunk does not inflate ({error})',
  'whale.said.png.keyword': 'a text chunk has a malformed keyword',
  'whale.said.png.ztxt-method': 'a zTXt chunk uses an unknown compression method',
  'whale.said.png.itxt-truncated': 'an iTXt chunk is truncated',
  'whale.said.png.itxt-compression': 'an iTXt chunk has an unknown compression setting',
  'whale.said.png.too-large': 'the PNG is larger than {max} bytes',
  'whale.said.png.signature': 'not a PNG file (bad signature)',
  'whale.said.png.chunks': 'the PNG has too many chunks',
  'whale.said.png.header-truncated': 'the PNG is truncated inside a chunk header',
  'whale.said.png.chunk-type': 'the PNG has a malformed chunk type',
  'whale.said.png.chunk-end': 'the {type} chunk runs past the end of the file',
  'whale.said.png.crc': 'the {type} chunk fails its CRC check',
  'whale.said.png.text-too-large': 'a text chunk is larger than {max} bytes',
  'whale.said.png.no-iend': 'the PNG has no IEND chunk',
  'whale.said.png.nai-lorebook':
    'the PNG carries a NovelAI lorebook ("naidata"), not a character card; import it into the worldbook with `cyrene worldbook import`',
  'whale.said.png.no-card':
    'the PNG carries no "chara" or "ccv3" text chunk, so it is not a character card; export the character from SillyTavern as a JSON card (or a PNG character card) and import that',
  'whale.said.png.base64': 'the card chunk is not valid base64',
  'whale.said.inbox.unreadable': 'cannot read the inbox {file}: {reason}',
  'whale.said.inbox.no-index': 'give at least one index from `cyrene whale inbox list`',
  'whale.said.inbox.not-index': '"{word}" is not an index; use the numbers shown by `cyrene whale inbox list`',
  'whale.said.inbox.outside-one': 'index {n} is outside the inbox (it has {count} entry)',
  'whale.said.inbox.outside': 'index {n} is outside the inbox (it has {count} entries)',
  'whale.said.inbox.twice': 'index {n} is given twice',
  'whale.said.inbox.same-text':
    'entry {i} has the same text as entry {earlier}; operations address entries by text, so select {earlier} first or drop the duplicate',
  'whale.said.preset.bad-id': '"{id}" is not a valid preset id: use 1–64 letters, digits, "-" or "_"',
  'whale.said.preset.missing': 'no preset "{id}" in {dir}; see `cyrene whale presets list`',
  'whale.said.preset.missing-delete': 'no preset "{id}" in {dir}',
  'whale.said.preset.unreadable': 'cannot read {file}: {reason}',
  'whale.said.preset.json': '{file} is not valid JSON ({error}); fix or delete it',
  'whale.said.preset.not-preset': '{file} is not a whale-persona preset (it needs a "persona" object, or the early top-level "character"/"contracts")',
  'whale.said.preset.too-deep': '{file} holds a value nested too deeply to read; make it shallower or delete it',
  'whale.said.preset.exists': 'a preset "{id}" already exists; pass --force to replace it or choose another id',
  'whale.said.preset.exists-autosave': 'a preset "{id}" already exists; pass --force to replace it',
  'whale.said.preset.exists-different':
    'a preset "{id}" already exists with different content; pass --force to replace it, or give another --id (without --id the card takes the next free id)',
  'whale.said.preset.no-free-id': '"{id}" and the ids after it up to "{id}-999" are all taken; import with --id NEW_ID',
  'whale.said.preset.reserved': '"autosave" is reserved for the persona saved before an apply; choose another id',
  'whale.said.apply.unreadable': 'cannot read {file}: {reason}; nothing was changed',
  'whale.said.apply.json': '{file} is not valid JSON ({error}); fix it first — it was not overwritten',
  'whale.said.apply.not-object': 'config.json does not hold a JSON object; fix it first (it was not changed)',
  'whale.said.apply.persona-not-object': '"persona" in config.json is not an object; fix it first (it was not changed)',
  'whale.said.apply.too-deep': '{file} holds a value nested too deeply to write back; make it shallower first (nothing was changed)',
  'whale.said.manifest.missing': 'no manifest.json in {dir}',
  'whale.said.manifest.bad': '{file} is not a manifest: expected {"format": "whale-golden/1", "cases": [...]}',
  'whale.said.card.byaf': 'cannot read the Backyard AI archive: {why}',
  'whale.said.byaf.too-large': 'the archive is larger than {max} bytes; export the character as a PNG or JSON card',
  'whale.said.byaf.damaged':
    'the Backyard AI archive is damaged or not a zip; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.member-too-large':
    'its {member} would inflate past {max} bytes (a zip bomb, or not a character), so it is not read; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.no-manifest':
    'the zip holds no manifest.json, so it is not a Backyard AI archive; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.bad-manifest':
    'its manifest.json is not a JSON object; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.no-character':
    'its manifest.json names no character (its "characters" list is missing or empty); export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.character-missing':
    'the character file {file} its manifest names is not in the archive; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.byaf.character-not-json':
    'the character file {file} its manifest names is not a JSON object; export the character again from Backyard AI, or as a PNG or JSON card, and import that',
  'whale.said.card.charx': 'cannot read the CharX card: {why}',
  'whale.said.charx.too-large': 'the CharX is larger than {max} bytes; export the card without its assets, or as a PNG or JSON card',
  'whale.said.charx.not-zip':
    'the file is not a zip (no end of its directory), so it is not a CharX card; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.split':
    'the CharX is a zip split over several files; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.zip64':
    'the CharX is a ZIP64 archive (over 4 GiB or 65,535 files), more than a card needs; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.damaged': 'the CharX zip is damaged; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.no-card':
    'the zip holds no card.json, so it is not a CharX character card; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.card-too-large':
    'its card.json would inflate past {max} bytes, more than a card holds (a zip bomb, or not a card), so it is not read; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.charx.encrypted':
    'its card.json is encrypted; export the character again from its program as a CharX, PNG or JSON card and import that without a password',
  'whale.said.charx.method':
    'its card.json is compressed with method {method}, not deflate; export the character again from its program as a CharX, PNG or JSON card and import that',
  'whale.said.card.png': 'cannot read the PNG card: {why}',
  'whale.said.card.binary': 'the file is binary, not a JSON card; export the card as JSON (or as a PNG card) and try again',
  'whale.said.card.json': 'the card is not valid JSON ({error})',
  'whale.said.card.pygmalion':
    'this is a Pygmalion (Gradio) character file (char_name, char_persona), which SillyTavern converts on import; import it there, export the character as a V2 card and import that — nothing was saved',
  'whale.said.card.yaml': 'the YAML character is not valid YAML ({error})',
  'whale.said.card.yaml-not-character':
    'not a YAML character SillyTavern imports: it needs a name (and context, greeting), as text-generation-webui writes them — nothing was saved',
  'whale.said.card.lorebook':
    'this is a lorebook (World Info), not a character card; import it into the worldbook with `cyrene worldbook import <file>` — nothing was saved',
  'whale.said.card.unknown': 'not a card this engine knows: neither a SillyTavern character card (v1/v2/v3) nor a whale-persona preset',
  'whale.said.card.too-deep': 'the card holds a value nested too deeply to read; nothing was saved',
  'whale.said.card.nothing-taken':
    'the card has nothing this engine takes (no description, personality, scenario, system_prompt or post_history_instructions with text); it holds {fields} — nothing was saved',
  'whale.said.card.nothing-taken.empty':
    'the card has nothing this engine takes (no description, personality, scenario, system_prompt or post_history_instructions with text); it holds nothing — nothing was saved',
  'whale.said.card.preset-empty':
    'the file has a "persona" object but nothing a whale-persona preset holds (it holds {fields}); if it is another program\'s character (Agnai, RisuAI), export it from there as a SillyTavern character card (V2) and import that — nothing was saved',
  'whale.said.card.not-preset': 'not a whale-persona preset',
  'whale.said.note.original-dropped':
    "{field}'s {{original}} (SillyTavern's own default system prompt) is dropped: here the engine's own system prompt always comes first and the contracts after it.",
  'whale.said.note.no-contract': 'system_prompt gave no usable contract line (each must be 2–300 characters); split it by hand into lines.',
  'whale.said.note.contracts-cut': 'system_prompt had more lines than the limit; only the first {max} contracts were kept.',
  'whale.said.note.extensions-kept': 'Kept extensions {keys} unchanged for a later export; this engine does not use them.',
  'whale.said.note.macros-kept':
    "Name macros kept as written: {macros}. SillyTavern fills them in with the character's and your names; nothing does here (edit the preset to say the names).",
  'whale.said.note.png-chunks-differ':
    'The PNG carries two cards: its ccv3 chunk ({taken}) was read, as SillyTavern reads it; its chara chunk ({other}) was not.',
  'whale.said.note.not-text': 'Not taken: {fields} (not text: SillyTavern writes these as text; write the value as text in the card to carry it).',
  'whale.said.note.also-not-taken': 'Also not taken: {fields} (this engine has no place for them; SillyTavern shows a nickname in place of {{char}}).',
  'whale.said.note.not-taken': 'Not taken (they need host features such as greetings, example dialogue or lorebooks, or are unknown): {fields}',
  'whale.said.note.never-switches': 'An import never switches the persona on: check it with `cyrene whale presets show <id>` and apply it yourself.',
  'whale.said.note.visible-kept': "The card's {key} differs from the copy in extensions.{extension}; kept the card's visible text.",
  'whale.said.note.byaf-read':
    "Read as SillyTavern imports a Backyard AI archive: the character's persona as the description; the first scenario's narrative, first message, example messages and formatting instructions as scenario, first message, examples and system prompt; the other scenarios' first messages as alternate greetings; lore items as the card's book.",
  'whale.said.note.byaf-characters': 'The archive holds {n} characters; only the first was read, as SillyTavern reads only it.',
  'whale.said.note.byaf-skipped': 'Scenario files not read (missing or not JSON), as SillyTavern skips them: {files}',
  'whale.said.note.yaml-read':
    'Read as SillyTavern imports a text-generation-webui YAML character: context as the description, greeting as the first message; nothing else.',
  'whale.said.note.yaml-left': "Not taken, as SillyTavern's import leaves them too: {fields}",
  'whale.said.note.ignored': 'Ignored (outside the preset whitelist of spec §4.2): {fields}',
}

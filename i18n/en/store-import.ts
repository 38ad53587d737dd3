import type { storeImportZh } from '../zh/store-import.ts'

/** Why an import or a migrate line was not taken, a snapshot's problems and the anchors' refusals, in English: memory/'s own sentences (decision 082). */
export const storeImportEn: { readonly [K in keyof typeof storeImportZh]: string } = {
  'store.why.axis': 'axis {axis} is not one of {axes}; correct or remove "axis" on this line and import again',
  'store.why.reason-type': 'reason must be a string',
  'store.why.reason-lines': 'reason must be one line; join its lines and import again',
  'store.why.meta-control': 'the metadata contains control characters (escape sequences); remove them and import again',
  'store.why.meta-long':
    'the metadata of this entry is {chars} characters; the limit is {limit}. Shorten it (a long reason or quote belongs in the text) and import again',
  'store.why.day-years': 'its day {date} is outside the years {min}–{max}',
  'store.why.unreadable': 'could not be read ({error})',
  'store.why.already-key': 'already imported (same text, kind and at)',
  'store.why.same-line': 'the same line as {first} (same text, kind and at); imported once',
  'store.why.already-id': 'already in the store (id {id})',
  'store.why.already-ref': 'already imported from {ref}',
  'store.why.already-text': 'already imported (same text and time)',
  'store.why.not-utf8':
    'not valid UTF-8 (near byte {byte} of the line, 0x{hex}); nothing from this line was imported. Re-save the file as UTF-8 (for example iconv -f GB18030 -t UTF-8) and import again',
  'store.why.not-json': 'not valid JSON',
  'store.why.not-object': 'a line must be a JSON object',
  'store.why.no-text': 'missing "text"',
  'store.why.left-in-source': '{problem} (left in the source, not imported)',
  'store.why.entry-not-utf8': 'its lines {first}–{last} include line {bad}, which is not valid UTF-8; re-save the file as UTF-8 and migrate again',
  'store.why.not-object-line': 'not a JSON object line',
  'store.why.no-fact-text': 'fact line without text',
  'store.why.unknown-op': 'unknown op {op} (skipped)',
  'store.why.not-confirmed': 'not confirmed (status {status}); confirm it in whale-persona first',
  'store.refused.not-found.source': "nothing at {from}; give the old plugin's data folder, a DSH_HOME, or a file",
  'store.refused.bad-input.source': '{from} is not a day file, a cyrene-memory.md, or a memory-inbox.jsonl',
  'store.refused.bad-input.self': "that is this store itself; give the old plugin's folder",
  'store.refused.bad-input.too-big':
    '{file} is {mb} MiB, over the {max} MiB a migration reads at once; nothing was read or changed. Split it (or move it out of the folder) and migrate again',
  'store.part.snapshot.not-utf8': '{file} is not valid UTF-8',
  'store.part.snapshot.format': '{at}: {problem}',
  'store.part.snapshot.cut': '{file} ends in the middle of a line (cut short?)',
  'store.part.snapshot.json': '{file} is not valid JSON ({error})',
  'store.part.snapshot.manifest.json': 'it is not valid JSON ({error})',
  'store.part.snapshot.manifest.version': 'it is not a version {version} manifest',
  'store.part.snapshot.manifest.record': 'its record of {file} is damaged',
  'store.part.snapshot.manifest': '{file} (its list of files and checksums) cannot be read: {problem}',
  'store.part.snapshot.more': '… and {n} more',
  'store.part.snapshot.top-link': '{file} is a link',
  'store.part.snapshot.top-not-folder': '{file} is not a folder',
  'store.part.snapshot.folder': '{file} is a folder where a file should be',
  'store.part.snapshot.link': '{file} is a symbolic link (a snapshot holds only plain files)',
  'store.part.snapshot.other': '{file} is not a plain file or folder',
  'store.part.snapshot.missing': '{file} is missing (the snapshot had it when it was taken)',
  'store.part.snapshot.size': '{file} has {bytes} bytes; it had {was} when the snapshot was taken (cut short or edited)',
  'store.part.snapshot.changed': '{file} was changed after the snapshot was taken (its checksum differs)',
  'store.part.snapshot.added': '{file} was added after the snapshot was taken',
  'store.refused.bad-snapshot.check':
    'snapshot {name} cannot be restored; nothing was changed:\n{problems}\nA snapshot is restored only whole and as it was taken: choose another one (cyrene restore --list), or put the named files back as they were.',
  'store.refused.bad-snapshot.changed': '{file} in snapshot {name} changed while it was being restored; nothing was changed — try again',
  'store.part.restore.link-on-way':
    '{up} in the store is a link, and the snapshot has {file} under it: restore never writes through links. Replace it with a plain folder (or move it out of the store)',
  'store.part.restore.file-on-way':
    '{up} in the store is not a folder, and the snapshot has {file} under it: restore never writes through links. Replace it with a plain folder (or move it out of the store)',
  'store.part.restore.folder': '{file} in the store is a folder where the snapshot has a file: move that folder out of the store',
  'store.part.restore.other': '{file} in the store is not a plain file: move it out of the store',
  'store.refused.restore-blocked.plan': 'cannot restore {name}; nothing was changed:\n{problems}\nthen restore again.',
  'store.refused.restore-blocked.became-link':
    '{up} in the store became a link during a restore; restore never writes through links. Replace it with a plain folder; the restore finishes the next time the store is opened',
  'store.refused.restore-blocked.became-file':
    '{up} in the store became a file during a restore; restore never writes through links. Replace it with a plain folder; the restore finishes the next time the store is opened',
  'store.refused.engine-running.restore':
    'another restore is running (process {pid}); wait for it to finish (if it was stopped, resume it: kill -CONT {pid}), then try again',
  'store.refused.engine-running': 'the memory engine is running (process {pid}); quit DSH first, then restore',
  'store.refused.person-only.restore': 'only the person may restore a snapshot',
  'store.part.anchor-text': '{key} anchor text',
  'store.refused.too-long.anchor':
    'the {key} anchor would be {chars} characters; its limit is {limit} (元/settings.json "anchor"). Shorten the text or the core.',
  'store.refused.bad-input.anchor-heading':
    'the {key} anchor text has on line {line} {text}, which the anchor file would read as a dated section heading ({form}); the store writes headings, dates and references itself. Remove or reword that line (for example without the leading "#" or ">") and write again. Nothing was written.',
  'store.refused.bad-input.anchor-reference':
    'the {key} anchor text has on line {line} {text}, which the anchor file would read as the history reference line ({form}); the store writes headings, dates and references itself. Remove or reword that line (for example without the leading "#" or ">") and write again. Nothing was written.',
  'store.refused.bad-input.anchor-key': 'anchor must be one of {keys}',
  'store.refused.person-only.anchor-core': "only the person may rewrite an anchor's core; the model adds dated sections",
  'store.refused.cadence':
    "the {key} anchor was already written at {at}; it may be written once every {days} days. Keep the thought in today's entries instead.",
}

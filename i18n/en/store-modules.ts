import type { storeModulesZh } from '../zh/store-modules.ts'

/** What volumes, margin, person marks, sync conflicts, links, the A/B review and the git repository say, in English: memory/'s own sentences (decision 084). */
export const storeModulesEn: { readonly [K in keyof typeof storeModulesZh]: string } = {
  'store.part.meta-json': '{file} is not valid JSON ({error})',
  'store.part.meta-not-utf8': '{file} is not valid UTF-8 (edited with another encoding?)',
  'store.part.marks.version': '{file} is not a version-1 record of person marks',
  'store.part.volumes.not-object': 'not an object',
  'store.part.volumes.fields': 'needs "current" and "volumes"',
  'store.part.volumes.volume': 'each volume needs id and started_at',
  'store.part.volumes.current': 'current volume {current} is not listed',
  'store.refused.no-persona.none': 'no persona files were found to fingerprint; pass the persona folder',
  'store.refused.no-persona.unreadable': 'cannot read persona file {path}: {error}',
  'store.refused.meta-json.volumes': '{file} is not a valid volume index ({why}); fix it by hand or restore it from a snapshot',
  'store.refused.meta-json.volumes-json': '{problem}; fix it by hand or restore it from a snapshot — nothing was changed',
  'store.refused.person-only.volume': 'only a person opens a new volume; the companion may suggest it in the dream journal',
  'store.refused.confirm.volume': 'opening a volume is for big changes (persona text, the five virtues, the storage format). To go ahead, add --confirm {word}',
  'store.refused.bad-input.volume-reason': 'give a one-line --reason for the new volume (at most 200 characters, no control characters)',
  'store.refused.meta-json.pending': '{problem}. Fix or restore it before re-checking; nothing was changed.',
  'store.refused.person-only.tombstone': 'only the person may restore a tombstoned memory',
  'store.refused.meta-json.marks':
    '{problem}; nothing was written. Restore it from a snapshot (cyrene restore) or move it aside, then run `cyrene memory marks --confirm <id>` for your entries.',
  'store.refused.bad-input.not-yours':
    'entry {id} does not say it is yours (no "base": true or "by": "person" in its comment); nothing was recorded. Write your own entry with `cyrene memory write`',
  'store.refused.person-only.conflict': 'only the person resolves a sync conflict (cyrene memory resolve). Nothing was changed.',
  'store.refused.no-such-conflict': 'no sync conflict "{what}". `cyrene memory check` lists them (an entry id or a conflict id). Nothing was changed.',
  'store.refused.bad-keep': 'conflict {id} is a whole file ({file}): it can only keep a or b. Nothing was changed.',
  'store.refused.bad-input.link-ids': 'give both ids: from (the entry the link starts at) and to (the entry it points to)',
  'store.refused.bad-input.link-self': 'an entry cannot link to itself; give two different ids',
  'store.refused.bad-input.link-type': 'type must be one of {types} (or empty); nothing was written',
  'store.refused.not-found.link-from': 'no entry with id {id}; find ids with memory_search',
  'store.refused.person-only.link-base':
    "entry {from} is the person's (written or imported by them): only the person changes it. Link from the other entry instead (from {to} to {from}); linking *to* the person's entry is fine",
  'store.refused.git-config.not-folder':
    '{path} is not a folder (a link or a file): the sync only uses a .git folder of its own. Move it away, then sync again.',
  'store.refused.git-config.foreign-one':
    "the store's .git/config has {keys}, which the sync does not allow (it could run a command or send your memory elsewhere). Remove it with `git -C {root} config --unset <key>`, then sync again. Nothing was changed.",
  'store.refused.git-config.foreign':
    "the store's .git/config has {keys}, which the sync does not allow (it could run a command or send your memory elsewhere). Remove them with `git -C {root} config --unset <key>`, then sync again. Nothing was changed.",
  'store.refused.git-foreign.local':
    "{files}: git's own file inside the store, which would hide memories from the sync and delete them on your other machines. Remove it (what stays on this machine is the root .gitignore the sync writes), then sync again. Nothing was sent.",
  'store.refused.git-foreign.remote':
    "the remote holds {files}: git's own file inside the store, which would hide memories from the sync and delete them here. Remove it from the remote, then sync again. Nothing here was changed by it.",
  'store.refused.git-name.local':
    '{files}: a file name with a line break, which the sync cannot read back through git. Rename the file (a name on one line), then sync again. Nothing was sent.',
  'store.refused.git-name.remote':
    'the remote holds {files}: a file name with a line break, which the sync cannot read back through git. Rename it on the machine that sent it, then sync again. Nothing here was changed by it.',
  'store.refused.sync-file-busy':
    '{file} kept changing while the sync was writing it (a program saving it again and again?). The sync stopped before that file; the next cyrene command finishes it once the file holds still, and nothing of it was written over.',
  'store.refused.git-remote': '{problem}. Nothing was changed.',
  'store.refused.bad-input.verdict': '--verdict must be keep or revert, got {got}',
  'store.refused.bad-input.ab-report': '{file} is not a persona A/B report (report.html or report.md written by npm run persona:ab)',
  'store.refused.ab-mismatch':
    '{file} was made for the persona {made}…, but the persona now is {now}…: run npm run persona:ab again on the persona you are opening the volume with',
}

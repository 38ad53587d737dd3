import type { storeRefusalsZh } from '../zh/store-refusals.ts'

/** What memory/ refuses on a write or an edit, in English: the sentences memory/ itself says (decision 082). */
export const storeRefusalsEn: { readonly [K in keyof typeof storeRefusalsZh]: string } = {
  'store.part.text': 'entry text',
  'store.part.field': '{field}',
  'store.part.metadata': 'the metadata',
  'store.part.extra-key': 'a key of extra',
  'store.part.margin-text': '余页 text',
  'store.part.when.number': 'is a bare number, not a date',
  'store.part.when.form': 'is not a date or date-time this store reads',
  'store.part.when.years': 'falls outside the years {min}–{max}',
  'store.part.when.month': 'has no month {month}',
  'store.part.when.day': 'is not a day of the calendar ({month} has {days} days)',
  'store.part.when.clock': 'has a time of day that does not exist (hours 00–23, minutes and seconds 00–59)',
  'store.part.when.zone': 'has an impossible zone offset {zone}',
  'store.part.when.years-zone': 'falls outside the years {min}–{max} once its zone is applied',
  'store.refused.bad-time':
    'at {at} {why}. Accepted: YYYY-MM-DD (that day), YYYY-MM-DDTHH:MM[:SS[.sss]] (local time), or the same followed by Z or ±HH:MM (for example 2026-03-04, 2026-03-04T21:30, 2026-03-04T13:30:00Z); years {min}–{max}.',
  'store.refused.bad-time.type':
    'at must be a string. Accepted: YYYY-MM-DD (that day), YYYY-MM-DDTHH:MM[:SS[.sss]] (local time), or the same followed by Z or ±HH:MM (for example 2026-03-04, 2026-03-04T21:30, 2026-03-04T13:30:00Z); years {min}–{max}.',
  'store.refused.bad-char':
    '{what} holds a lone surrogate (U+{hex} at position {position}): half of a character — usually a broken "{escape}" escape or a cut emoji — that has no UTF-8 form. Fix the source and try again; nothing was written.',
  'store.refused.bad-input.not-string': '{what} must be a string',
  'store.refused.empty': '{what} is empty: write at least one word',
  'store.refused.empty.invisible':
    '{what} is empty: it holds only invisible characters (zero-width spaces, joiners, direction marks or the like); write at least one visible word',
  'store.refused.too-long.text':
    '{what} is {chars} characters; the limit is {limit}. Split it into smaller memories, or keep the long text in 余页/ (free writing, never injected).',
  'store.refused.control-char': '{what} contains control characters (for example from a terminal paste); remove them and write again',
  'store.refused.meta-in-text': '{what} contains a line starting with "{prefix}", which would be read as metadata; reword that line',
  'store.refused.bad-input.field-type': '{field} must be a string',
  'store.refused.control-char.field': '{field} contains control characters; remove them',
  'store.refused.too-long.field': '{field} is {chars} characters; the limit is {limit}. Shorten it.',
  'store.refused.bad-link.not-string': 'each link must be a string "<id>|<type>"',
  'store.refused.bad-link.not-list': 'links must be a list of "<id>|<type>"',
  'store.refused.bad-input.not-object': 'an entry must be an object with at least "text"',
  'store.refused.bad-input.writer': 'say who is writing: by "person" or "model"',
  'store.refused.person-only.base':
    'base: true entries can only be written by the person (cyrene memory write --base); the model may propose it in words instead',
  'store.refused.bad-kind': 'kind must be a short lowercase word like {kinds}',
  'store.refused.bad-input.src-ids': 'src_ids must be a list of entry ids',
  'store.refused.bad-input.consequence': 'consequence must be an object {self, other, relation, world, future}',
  'store.refused.bad-input.extra': 'extra must be an object of further keys',
  'store.refused.bad-input.extra-reserved': 'extra may not set "{key}": it is a field of the format; pass it as its own field',
  'store.refused.too-long.metadata':
    'the metadata of this entry is {chars} characters; the limit is {limit}. Keep long material in the text of separate entries or in 余页/.',
  'store.refused.too-long.injected': 'this entry would inject {chars} characters; the limit per injected entry is {limit}. Shorten src_quote or the text.',
  'store.refused.not-found.entry': 'no entry with id {id}; list ids with `cyrene memory list`',
  'store.refused.read-only': 'entry {id} is in {file} (余页/待定), which is never edited; promote it instead',
  'store.refused.person-only.base-entry': 'entry {id} is a base entry: only the person may change it',
  'store.refused.not-found.moved': 'entry {id} moved while being edited; try again',
  'store.refused.bad-path.margin': '余页 free writing goes into a .md file outside 余页/待定/',
  'store.refused.bad-input.text-type': 'text must be a string',
  'store.refused.person-only.meta': "元/ holds the store's own records and settings; only the person may change them",
  'store.note.invisible': '{what} contains {n} invisible character(s) (zero-width or direction marks); kept as written',
  'store.note.unknown-kind': 'kind "{kind}" is not one of the known kinds ({kinds}); kept',
}

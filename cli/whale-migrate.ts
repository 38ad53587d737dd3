import type { ImportItem, Skipped } from '../memory/upkeep.ts'
import { KIND_RE } from '../memory/format.ts'
import { configFromText } from '../whale/config.ts'
import { readConfigText, resolveIn, type FsContext } from '../whale/files.ts'
import { replayInbox, splitLines, type ConfirmVouch } from '../whale/inbox.ts'
import { inboxFileOf } from '../whale/paths.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'

const MEMORY_KIND = 'memory'

/**
 * A whale-persona inbox read the way whale/ reads it (spec §5.4 replay, the
 * same code `cyrene whale inbox list` uses, with the person's record when the
 * store has one: a confirmation the model wrote counts as proposed there, and
 * here): only confirmed entries come over; proposed ones wait for the person in
 * whale-persona. Each keeps its place in the replayed view as `source_ref`, and its tag.
 */
export function itemsFromWhaleInbox(text: string, path: string, lang: Lang = DEFAULT_LANG, vouch?: ConfirmVouch): { items: ImportItem[]; skipped: Skipped[] } {
  const items: ImportItem[] = []
  const skipped: Skipped[] = []
  replayInbox(splitLines(text), vouch).forEach((entry, i) => {
    const origin = `${path}#${i + 1}`
    if (entry.status !== 'confirmed') {
      // `whale inbox list` numbers the same replayed view from 0: the advice names that number (the origin keeps #i+1, as recorded).
      skipped.push({ origin, why: t('whale.out.migrate.notConfirmed', lang, { status: entry.status, n: i }) })
      return
    }
    const kind = entry.kind === MEMORY_KIND ? 'fact' : entry.kind
    if (!KIND_RE.test(kind)) {
      skipped.push({ origin, why: t('whale.out.migrate.noKind', lang, { kind: JSON.stringify(entry.kind) }) })
      return
    }
    items.push({
      text: entry.text,
      kind,
      source_ref: origin,
      origin,
      ...(entry.at !== '' ? { at: entry.at } : {}),
      ...(entry.tag !== '' ? { extra: { tag: entry.tag } } : {}),
    })
  })
  return { items, skipped }
}

/** Where the whale-persona inbox of this DSH_HOME / DSH_WHALE_CONFIG is, as an absolute path. */
export function whaleInboxPath(ctx: FsContext): string {
  const { where, configText } = readConfigText(ctx)
  return resolveIn(ctx, inboxFileOf(configFromText(configText).memory, where.configDir))
}

import type { Context } from '@deepseek-ai/cordis'
import { t, type Lang } from '../i18n/index.ts'
import { errorText } from '../i18n/store-said.ts'
import type {} from '../host/service.ts'
import { newVolume } from '../host/new-volume.ts'
import { CONFIRM_WORD } from '../memory/person.ts'
import { describeSnapshots, KEEP_OTHER_SNAPSHOTS, KEEP_SNAPSHOTS, restoreSnapshot, takeSnapshot } from '../memory/upkeep.ts'
import type { MemoryStore } from '../memory/index.ts'
import type { CommandResult, CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * The person's store commands in chat: a new volume, a snapshot, a restore.
 * Each is the same code as its `cyrene` command-line twin (memory/ and
 * host/new-volume.ts), run by the engine this DSH process holds; a refusal
 * says what to do and changes nothing.
 */

/** The store this process's engine holds, or the answer that says why there is none. */
async function withStore(ctx: Context, lang: Lang, act: (store: MemoryStore) => Promise<CommandResult>): Promise<CommandResult> {
  const store = ctx.get('cyreneMemory')?.store()
  if (store === undefined) return { kind: 'error', text: t('chat.noEngineNothingDone', lang) }
  try {
    return await act(store)
  } catch (error) {
    return { kind: 'error', text: t('chat.failedNothingChanged', lang, { error: errorText(error, lang) }) }
  }
}

export const newVolumeRow: CyreneSubcommand = {
  name: 'new-volume',
  usage: 'help.newVolume.usage',
  summary: 'help.newVolume.summary',
  run: (ctx, args, _agent, lang) => {
    const [word = '', ...rest] = args
    const reason = rest.join(' ').trim()
    if (word.toLowerCase() !== 'confirm' || reason === '')
      return {
        kind: 'error',
        text: t('chat.newVolume.confirm', lang),
      }
    return withStore(ctx, lang, async (store) => {
      const v = await newVolume(store, { reason, confirm: CONFIRM_WORD })
      return {
        kind: 'success',
        text: t('chat.newVolume.opened', lang, { id: v.id, reason: v.reason, hash: v.persona_hash.slice(0, 20) }),
      }
    })
  },
}

export const backupRow: CyreneSubcommand = {
  name: 'backup',
  usage: 'help.backup.usage',
  summary: 'help.backup.summary',
  run: (ctx, _args, _agent, lang) =>
    withStore(ctx, lang, async (store) => {
      const s = await takeSnapshot(store, 'manual')
      return {
        kind: 'success',
        text: t('chat.backup.taken', lang, { name: s.name, files: s.files, path: s.path, keep: KEEP_OTHER_SNAPSHOTS, daily: KEEP_SNAPSHOTS }),
      }
    }),
}

export const restoreRow: CyreneSubcommand = {
  name: 'restore',
  usage: 'help.restore.usage',
  summary: 'help.restore.summary',
  run: (ctx, args, _agent, lang) =>
    withStore(ctx, lang, async (store) => {
      const name = args[0]
      if (name === undefined) {
        const list = await describeSnapshots(store)
        return {
          kind: 'success',
          text:
            list.length === 0
              ? t('chat.restore.none', lang)
              : `${t('chat.restore.list', lang)}\n${list.map((s) => `  ${s.name}${s.verified ? '' : t('chat.restore.unverified', lang)}`).join('\n')}`,
        }
      }
      const r = await restoreSnapshot(store, name, { by: 'person' })
      return {
        kind: 'success',
        text: [
          t('chat.restore.done', lang, { name, restored: r.restored, removed: r.removed, safety: r.safety }),
          ...(r.verified ? [] : [t('chat.restore.doneUnverified', lang, { name })]),
          ...r.warnings.map((w) => t('chat.restore.warning', lang, { warning: w })),
        ].join('\n'),
      }
    }),
}

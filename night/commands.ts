import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { t, type Lang } from '../i18n/index.ts'
import type { CommandResult, CyreneSubcommand } from '../runtime/cyrene-subcommands.ts'
import type { CyreneDream } from './service.ts'
import type { NightOutcome } from './night.ts'

/**
 * `/dream` (tonight's dream now; a second one the same night appends to the
 * same journal) and `/cyrene dream on|off|status` (this session in or out of
 * the night). The work is the host's `cyreneDream` service.
 */
function service(ctx: Context): CyreneDream | undefined {
  return ctx.get('cyreneDream') as CyreneDream | undefined
}

/** What a dream run came to, in words; `/dream` and the panel's "Dream now" both answer with it. */
export function describeOutcome(o: NightOutcome | { kind: 'no-engine' }, lang: Lang = 'zh'): CommandResult {
  switch (o.kind) {
    case 'dreamt': {
      const what = t(o.wrote ? 'chat.dream.wrote' : 'chat.dream.noOutput', lang, { journal: o.journal })
      const checks = [o.checks.month, o.checks.year]
        .filter((c) => c !== undefined)
        .map((c) => t('chat.dream.check', lang, { promoted: c.promoted.length, pending: c.stillPending.length, tombstoned: c.tombstoned.length }))
      const cut = o.cut.entries + o.cut.pending > 0 ? t('chat.dream.cut', lang, { entries: o.cut.entries, pending: o.cut.pending }) : ''
      const text = `${t('chat.dream.dreamt', lang, { nights: o.covered.join(', '), what })}${checks.length > 0 ? t('chat.dream.checks', lang, { checks: checks.join('; ') }) : ''}${cut}`
      return o.error === undefined ? { kind: 'success', text } : { kind: 'error', text: `${text}\n${t('chat.dream.modelFailed', lang, { error: o.error })}` }
    }
    case 'busy':
      return { kind: 'error', text: t('chat.dream.busy', lang) }
    case 'no-model':
      return { kind: 'error', text: t('chat.dream.noModel', lang) }
    case 'no-engine':
      return { kind: 'error', text: t('chat.dream.noEngine', lang) }
    case 'not-due':
      return { kind: 'success', text: t('chat.dream.notDue', lang) }
  }
}

export function registerDreamCommand(ctx: Context, lang: Lang, langNow: () => Lang = () => lang): void {
  ctx.commands.register({
    name: 'dream',
    description: t('chat.dream.description', lang),
    handler: async () => {
      const now = langNow()
      const dream = service(ctx)
      if (dream === undefined) return { kind: 'error', text: t('chat.dream.notMounted', now) }
      try {
        return describeOutcome(await dream.dream('/dream', true), now)
      } catch (e) {
        return { kind: 'error', text: t('chat.dream.failed', now, { error: (e as Error).message }) }
      }
    },
  })
}

async function dreamSwitch(ctx: Context, args: string[], agent: Agent, lang: Lang): Promise<CommandResult> {
  const dream = service(ctx)
  if (dream === undefined) return { kind: 'error', text: t('chat.dream.notMounted', lang) }
  const [word = 'status'] = args
  const sub = word.toLowerCase()
  if (sub !== 'on' && sub !== 'off' && sub !== 'status') return { kind: 'error', text: t('chat.dream.unknownSwitch', lang, { word }) }
  const id = String(agent.session.id)
  if (sub === 'status') {
    const s = dream.doctorState()
    return {
      kind: 'success',
      text: `${s.enabled ? t('chat.dream.statusOn', lang, { at: s.at }) : t('chat.dream.statusOff', lang)}${t(s.tasks.includes(id) ? 'chat.dream.inTonight' : 'chat.dream.notTonight', lang)}`,
    }
  }
  const roster = ctx.get('agentPresets') as { composedPreset(c: Context): string | undefined } | undefined
  try {
    await dream.setEnabled(id, roster?.composedPreset(agent.ctx) ?? '', sub === 'on')
  } catch (e) {
    return { kind: 'error', text: (e as Error).message }
  }
  return { kind: 'success', text: t(sub === 'on' ? 'chat.dream.on' : 'chat.dream.off', lang) }
}

export const DREAM_SUBCOMMAND: CyreneSubcommand = {
  name: 'dream',
  usage: 'help.dreamSwitch.usage',
  summary: 'help.dreamSwitch.summary',
  run: (ctx, args, agent, lang) => dreamSwitch(ctx, args, agent, lang),
}

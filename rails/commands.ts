import type { Context } from '@deepseek-ai/cordis'
import { t, type Lang } from '../i18n/index.ts'
import { errorText } from '../i18n/store-said.ts'
import type {} from '../host/service.ts'
import type { CommandResult, CyreneSubcommand } from '../runtime/cyrene-subcommands.ts'
import { pinForm, pinnedForm, voiceTextsFor } from './voice-state.ts'

/**
 * `/cyrene nickname <名字>`, `/cyrene form <名字>|auto`, `/cyrene style <档位>`:
 * the person's choices for rails 120, 125 and 130. Nickname and style are
 * saved in 元/settings.json for every session; a form is pinned for this
 * session only. Bad input is refused with what to do, and nothing changes.
 * Without an argument each answers what is set now and how to change it: a
 * question answered, so a success.
 */

async function saveSetting(ctx: Context, key: 'nickname' | 'style', value: string, lang: Lang): Promise<CommandResult | undefined> {
  const memory = ctx.get('cyreneMemory')
  if (memory === undefined) return { kind: 'error', text: t('chat.noMemoryService', lang) }
  try {
    await memory.setVoiceSetting(key, value)
    return undefined
  } catch (error) {
    return { kind: 'error', text: t('chat.notSaved', lang, { error: errorText(error, lang) }) }
  }
}

export const nicknameSubcommand: CyreneSubcommand = {
  name: 'nickname',
  usage: 'help.nickname.usage',
  summary: 'help.nickname.summary',
  run: async (ctx, args, _agent, lang) => {
    const name = args.join(' ')
    if (name === '') {
      const now = ctx.get('cyreneMemory')?.voice.nickname()
      return { kind: 'success', text: now === undefined ? t('chat.nickname.none', lang) : t('chat.nickname.now', lang, { name: now }) }
    }
    const failed = await saveSetting(ctx, 'nickname', name, lang)
    return failed ?? { kind: 'success', text: t('chat.nickname.saved', lang, { name }) }
  },
}

export const formSubcommand: CyreneSubcommand = {
  name: 'form',
  usage: 'help.form.usage',
  summary: 'help.form.summary',
  run: (ctx, args, agent, lang) => {
    const forms = voiceTextsFor(ctx.get('cyreneMemory')?.texts).forms
    const names = forms.map((f) => f.name).join(' | ')
    const sessionId = agent.session.id
    const wanted = args.join(' ')
    if (wanted === '') {
      const pinned = pinnedForm(sessionId)
      return { kind: 'success', text: pinned === undefined ? t('chat.form.auto', lang, { names }) : t('chat.form.pinnedNow', lang, { names, form: pinned }) }
    }
    if (wanted.toLowerCase() === 'auto') {
      pinForm(sessionId, undefined)
      return { kind: 'success', text: t('chat.form.released', lang) }
    }
    if (!forms.some((f) => f.name === wanted)) return { kind: 'error', text: t('chat.form.unknown', lang, { form: wanted, names }) }
    pinForm(sessionId, wanted)
    return { kind: 'success', text: t('chat.form.pinned', lang, { form: wanted }) }
  },
}

export const styleSubcommand: CyreneSubcommand = {
  name: 'style',
  usage: 'help.style.usage',
  summary: 'help.style.summary',
  run: async (ctx, args, _agent, lang) => {
    const memory = ctx.get('cyreneMemory')
    const texts = voiceTextsFor(memory?.texts)
    const names = texts.styles.map((s) => s.name).join(' | ')
    const wanted = args.join(' ')
    if (wanted === '') {
      const now = memory?.voice.settings().style ?? texts.defaultStyle
      return { kind: 'success', text: t('chat.style.now', lang, { names, style: now }) }
    }
    if (!texts.styles.some((s) => s.name === wanted)) return { kind: 'error', text: t('chat.style.unknown', lang, { style: wanted, names }) }
    const failed = await saveSetting(ctx, 'style', wanted, lang)
    return failed ?? { kind: 'success', text: t('chat.style.saved', lang, { style: wanted }) }
  },
}

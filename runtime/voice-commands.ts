import type { Context } from '@deepseek-ai/cordis'
import type {} from '../host/service.ts'
import type { CommandResult, CyreneSubcommand } from './cyrene-subcommands.ts'
import { pinForm, pinnedForm, voiceTextsFor } from './voice-state.ts'

/**
 * `/cyrene nickname <名字>`, `/cyrene form <名字>|auto`, `/cyrene style <档位>`:
 * the person's choices for rails 120, 125 and 130. Nickname and style are
 * saved in 元/settings.json for every session; a form is pinned for this
 * session only. Bad input is refused with what to do, and nothing changes.
 */

async function saveSetting(ctx: Context, key: 'nickname' | 'style', value: string): Promise<CommandResult | undefined> {
  const memory = ctx.get('cyreneMemory')
  if (memory === undefined) return { kind: 'error', text: '昔涟的记忆服务没有挂载，设置没有保存（见 /cyrene doctor）。' }
  try {
    await memory.setVoiceSetting(key, value)
    return undefined
  } catch (error) {
    return { kind: 'error', text: `没有保存：${(error as Error).message}` }
  }
}

export const nicknameSubcommand: CyreneSubcommand = {
  name: 'nickname',
  usage: 'nickname <名字>',
  summary: '她怎么称呼你（≤ 20 字，所有会话都用）',
  run: async (ctx, args) => {
    const name = args.join(' ')
    if (name === '') {
      const now = ctx.get('cyreneMemory')?.nickname()
      return { kind: 'error', text: `给一个名字：/cyrene nickname <名字>（≤ 20 字）。现在${now === undefined ? '没有设定称呼' : `的称呼是「${now}」`}。` }
    }
    const failed = await saveSetting(ctx, 'nickname', name)
    return failed ?? { kind: 'success', text: `好，以后叫你「${name}」。（写进了 元/settings.json，下一条消息起生效）` }
  },
}

export const formSubcommand: CyreneSubcommand = {
  name: 'form',
  usage: 'form <名字>|auto',
  summary: '本会话固定她的形态，auto 放开（按场景与时段自动选）',
  run: (ctx, args, agent) => {
    const forms = voiceTextsFor(ctx.get('cyreneMemory')).forms
    const names = forms.map((f) => f.name).join(' | ')
    const sessionId = agent.session.id
    const wanted = args.join(' ')
    if (wanted === '') {
      const pinned = pinnedForm(sessionId)
      return {
        kind: 'error',
        text: `给一个形态：/cyrene form <${names}>，或 /cyrene form auto。本会话现在${pinned === undefined ? '按场景与时段自动选' : `固定为「${pinned}」`}。`,
      }
    }
    if (wanted.toLowerCase() === 'auto') {
      pinForm(sessionId, undefined)
      return { kind: 'success', text: '形态放开了：按你的话里的场景词和此刻的时段自动选。' }
    }
    if (!forms.some((f) => f.name === wanted)) return { kind: 'error', text: `没有「${wanted}」这个形态。可选：${names}，或 auto。` }
    pinForm(sessionId, wanted)
    return { kind: 'success', text: `本会话固定为「${wanted}」（/cyrene form auto 放开）。` }
  },
}

export const styleSubcommand: CyreneSubcommand = {
  name: 'style',
  usage: 'style <档位>',
  summary: '道韵（表达风格档位），所有会话都用',
  run: async (ctx, args) => {
    const memory = ctx.get('cyreneMemory')
    const texts = voiceTextsFor(memory)
    const names = texts.styles.map((s) => s.name).join(' | ')
    const wanted = args.join(' ')
    if (wanted === '') {
      const now = memory?.voiceSettings().style ?? texts.defaultStyle
      return { kind: 'error', text: `给一个档位：/cyrene style <${names}>。现在是「${now}」。` }
    }
    if (!texts.styles.some((s) => s.name === wanted)) return { kind: 'error', text: `没有「${wanted}」这个档位。可选：${names}。` }
    const failed = await saveSetting(ctx, 'style', wanted)
    return failed ?? { kind: 'success', text: `道韵换成「${wanted}」，所有会话下一条消息起生效。` }
  },
}

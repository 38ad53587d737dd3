import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import { EMPTY_MEMORY, framed } from './framing.ts'

/**
 * Preset row `cyrene-runtime`: what the model sees in a Cyrene preset.
 * Foundation scope: the two variables the persona names. Rails, tools and
 * pre-step recall come with the runtime issue.
 */
export const name = 'cyrene-runtime'
export const inject = ['systemPrompt']

export interface Rails { nickname: boolean; style: boolean; scene: boolean; worldbook: boolean }
export interface Config {
  rails: Rails
  /** What `{{user_nickname}}` says before the person has chosen a nickname. */
  defaultNickname: string
}

export const Config: Schema<Config> = Schema.object({
  rails: Schema.object({
    nickname: Schema.boolean().default(false).description('称呼轨道 (order 120)'),
    style: Schema.boolean().default(false).description('道韵轨道 (order 130)'),
    scene: Schema.boolean().default(false).description('形态/场景轨道 (order 125)'),
    worldbook: Schema.boolean().default(false).description('世界书轨道 (order 140)'),
  }),
  defaultNickname: Schema.string().default('伙伴').description('尚未设定称呼时 {{user_nickname}} 的值'),
})

export function apply(ctx: Context, config: Config): void {
  // Variables must always have a value: an undefined one fails the whole turn.
  ctx.systemPrompt.variable('cyrene_memory', () => {
    try {
      const block = ctx.get('cyreneMemory')?.memoryBlock()
      return framed('记忆', block === undefined || block.text === '' ? EMPTY_MEMORY : block.text)
    } catch {
      return framed('记忆', EMPTY_MEMORY)
    }
  })
  ctx.systemPrompt.variable('user_nickname', () => {
    try {
      return ctx.get('cyreneMemory')?.nickname() ?? config.defaultNickname
    } catch {
      return config.defaultNickname
    }
  })
}

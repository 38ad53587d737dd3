import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '@deepseek-ai/dsh-plan-mode'
import { framedWithin, inertBraces } from '../prompt/index.ts'

/**
 * Preset row `cyrene-plan-bridge`, inside the `planning` group so it shares the
 * group's planMode realm. The sealed persona swallows plan mode's own section,
 * so while plan mode is on this context (order 155) carries its gist.
 */
export const name = 'cyrene-plan-bridge'
export const inject = ['planMode', 'systemPrompt']

export interface Config {
  text: string
}
export const Config: Schema<Config> = Schema.object({
  text: Schema.string()
    .default(
      '计划模式已开启：只读探查、不改文件、不执行计划；把完整计划（以 # 标题开头）交给 exit_plan_mode 作为本次回复中唯一且最后的工具调用，批准后才动手。',
    )
    .description('计划模式开启时注入的提示（≤ 300 字，含数据框）'),
})

export const BUDGET = 300

/** The bridge text within its budget: the body is cut, never the closing marker; braces made inert (a context is interpolated). */
export function bridgeText(config: Config): string {
  return framedWithin('计划模式', inertBraces(config.text), BUDGET).text
}

export function apply(ctx: Context, config: Config): void {
  const text = bridgeText(config)
  ctx.systemPrompt.context({
    name: 'cyrene:plan-bridge',
    order: 155,
    text: (assembly) => {
      const agent = assembly.agent
      if (agent === undefined) return ''
      try {
        return ctx.planMode.get(agent).active ? text : ''
      } catch {
        return ''
      }
    },
  })
}

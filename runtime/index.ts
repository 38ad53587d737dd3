import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import type {} from './whale-persona.ts'
import { EMPTY_MEMORY, framed } from './framing.ts'
import { MIRROR_PREFIX, mirrorSections, type MirrorConfig, type MirrorMode } from './section-mirror.ts'
import { recallBlock } from './recall-block.ts'
import { registerMemoryTools } from './memory-tools.ts'
import { createUserMessage } from '@deepseek-ai/dsh-llm'

/**
 * Preset row `cyrene-runtime`: what the model sees in a Cyrene preset.
 * Today: the two variables the persona names, the memory tools, the memory
 * hits before each step, and the section mirror that carries swallowed
 * sections (tool guidance, plan policy, other plugins' sections) over as
 * runtime contexts. The rails come with the runtime work.
 */
export const name = 'cyrene-runtime'
export const inject = ['systemPrompt', 'tools']

export interface Rails { nickname: boolean; style: boolean; scene: boolean; worldbook: boolean }
export interface Config {
  rails: Rails
  /** What `{{user_nickname}}` says before the person has chosen a nickname. */
  defaultNickname: string
  sectionMirror: MirrorConfig
  recall: RecallConfig
}

export interface RecallConfig {
  enabled: boolean
  /** Characters the memory-hit message may take (contract §4: ≤ 1000). */
  maxChars: number
  perEntryMax: number
  limit: number
}

export const Config: Schema<Config> = Schema.object({
  rails: Schema.object({
    nickname: Schema.boolean().default(false).description('称呼轨道 (order 120)'),
    style: Schema.boolean().default(false).description('道韵轨道 (order 130)'),
    scene: Schema.boolean().default(false).description('形态/场景轨道 (order 125)'),
    worldbook: Schema.boolean().default(false).description('世界书轨道 (order 140)'),
  }),
  defaultNickname: Schema.string().default('伙伴').description('尚未设定称呼时 {{user_nickname}} 的值'),
  sectionMirror: Schema.object({
    mode: Schema.union(['auto', 'off', 'allowlist'] as const).default('auto' as MirrorMode).description('auto: tool:/plan:/whale: 与未知段；off；allowlist: 只镜像 allow'),
    maxChars: Schema.natural().default(3000).description('镜像总预算（字）'),
    perSectionMax: Schema.natural().default(1200).description('单段上限（字），超出截断'),
    mirrorUnknown: Schema.boolean().default(true).description('是否镜像名字不认识的段'),
    allow: Schema.array(Schema.string()).default([]).description('总是镜像的段名（可用 前缀*）'),
  }),
  recall: Schema.object({
    enabled: Schema.boolean().default(true).description('每条消息前附上记忆命中（pre-step）'),
    maxChars: Schema.natural().default(1000).description('记忆命中块的预算（字）'),
    perEntryMax: Schema.natural().default(300).description('单条命中上限（字）'),
    limit: Schema.natural().default(8).description('最多几条命中'),
  }),
})

/** The text the person typed in this step's new messages (plugin notices left out). */
export function latestUserText(messages: readonly { source?: { kind?: string }; content?: unknown }[]): string {
  const texts: string[] = []
  for (const m of messages) {
    if (m.source?.kind !== 'user' || !Array.isArray(m.content)) continue
    for (const block of m.content as { type?: string; text?: unknown }[]) if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  }
  return texts.join('\n').trim()
}

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
      return ctx.get('cyreneMemory')?.nickname() ?? ctx.get('whalePersona')?.userName() ?? config.defaultNickname
    } catch {
      return config.defaultNickname
    }
  })

  registerMemoryTools(ctx)

  // Memory hits for what the person just said, as a data message before the step (contract §4).
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (decision.kind !== 'enter' || !config.recall.enabled) return decision
    const query = latestUserText(payload.messages)
    const service = ctx.get('cyreneMemory')
    if (query === '' || service === undefined) return decision
    try {
      const block = recallBlock(await service.recall(query, config.recall.limit), config.recall.maxChars, config.recall.perEntryMax)
      if (block.text === '') return decision
      const note = createUserMessage({
        content: [{ type: 'text', text: block.text }],
        source: { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0', form: 'notice', summary: `记忆命中 ${block.shown} 条` },
      })
      return { ...decision, messages: [...decision.messages, note] }
    } catch {
      return decision
    }
  })

  ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
    const result = await next()
    // Only assemblies of a Cyrene preset carry our variable; once mirrored, leave it.
    if (result.variables.cyrene_memory === undefined || result.contexts.some((c) => c.name.startsWith(MIRROR_PREFIX))) return result
    try {
      const { contexts, report } = mirrorSections(result.sections, result.variables, config.sectionMirror)
      ctx.get('cyreneMemory')?.noteMirror(report)
      return { ...result, contexts: [...result.contexts, ...contexts] }
    } catch {
      return result
    }
  })
}

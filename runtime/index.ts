import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import type {} from '../host/whale-row.ts'
import { EMPTY_MEMORY, framed } from './framing.ts'
import type { MirrorConfig, MirrorMode } from './section-mirror.ts'
import { registerMemoryTools } from './memory-tools.ts'
import { registerLinkAndMarginTools } from './link-margin-tools.ts'
import { registerRecallStep, type RecallConfig } from './recall-step.ts'
import { registerSectionMirror } from './mirror-listener.ts'
import { registerCapabilityRail, type CapabilityConfig } from './capability-rail.ts'
import { inertBraces } from './prompt-text.ts'
import { MEMORY_TITLE } from '../host/memory-block.ts'

/**
 * Preset row `cyrene-runtime`: what the model sees in a Cyrene preset.
 * Today: the two variables the persona names, the memory tools, the 150
 * capability rail, the memory hits before each step, and the section mirror
 * that carries swallowed sections (tool guidance, plan policy, other plugins'
 * sections) over as runtime contexts. The 120–140 rails are not built yet;
 * their switches are already in the config the presets pass.
 */
export const name = 'cyrene-runtime'
export const inject = ['systemPrompt', 'tools']

export interface Rails {
  nickname: boolean
  style: boolean
  scene: boolean
  worldbook: boolean
}
export interface Config {
  rails: Rails
  /** What `{{user_nickname}}` says before the person has chosen a nickname. */
  defaultNickname: string
  sectionMirror: MirrorConfig
  recall: RecallConfig
  capability: CapabilityConfig
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
    mode: Schema.union(['auto', 'off', 'allowlist'] as const)
      .default('auto' as MirrorMode)
      .description('auto: tool:/plan:/whale: 与未知段；off；allowlist: 只镜像 allow'),
    guidanceMaxChars: Schema.natural()
      .default(40000)
      .description('DSH 自带说明（tool:/plan:/ui: 段）整段带上的总上限（字，含框）；只防失控，rc.8 的 cordis 约 16,600'),
    maxChars: Schema.natural().default(2000).description('其他段（别的插件、whale:、未知名字）合计预算（字，含框）'),
    perSectionMax: Schema.natural().default(1200).description('其他段单段上限（字），超出截断'),
    mirrorUnknown: Schema.boolean().default(true).description('是否镜像名字不认识的段'),
    allow: Schema.array(Schema.string()).default([]).description('总是镜像的段名（可用 前缀*）'),
  }),
  capability: Schema.object({
    enabled: Schema.boolean().default(true).description('能力总则轨道（order 150，≤ 1300 字）'),
    text: Schema.string().default('').description('替换默认的能力总则正文（空 = 默认）'),
  }),
  recall: Schema.object({
    enabled: Schema.boolean().default(true).description('每条消息前附上记忆命中（pre-step）'),
    maxChars: Schema.natural().default(1000).description('记忆命中块的预算（字）'),
    perEntryMax: Schema.natural().default(300).description('单条命中上限（字）'),
    limit: Schema.natural().default(8).description('最多几条命中'),
  }),
})

export function apply(ctx: Context, config: Config): void {
  // Variables must always have a value: an undefined one fails the whole turn.
  ctx.systemPrompt.variable('cyrene_memory', () => {
    try {
      const block = ctx.get('cyreneMemory')?.memoryBlock()
      return framed(MEMORY_TITLE, block === undefined || block.text === '' ? EMPTY_MEMORY : block.text)
    } catch {
      return framed(MEMORY_TITLE, EMPTY_MEMORY)
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
  registerLinkAndMarginTools(ctx)
  // A person's own rail text must not be read as DSH variables.
  registerCapabilityRail(ctx, { ...config.capability, text: inertBraces(config.capability.text) })

  registerRecallStep(ctx, config.recall)

  registerSectionMirror(ctx, config.sectionMirror)
}

import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import type {} from '../host/whale-row.ts'
import { registerMemoryTools } from './memory-tools.ts'
import { registerLinkAndMarginTools } from './link-margin-tools.ts'
import { promptSafe } from '../prompt/index.ts'
import {
  HITS_CAP,
  HITS_MAX_ENTRIES,
  MEMORY_CAP,
  memoryBlock,
  memoryText,
  nicknameOf,
  RAIL_CAP,
  railSwitchesSchema,
  RECALL_DEFAULTS,
  registerSectionMirror,
  worldbookBlocks,
  type CapabilityConfig,
  type MirrorConfig,
  type MirrorMode,
  type Rails,
  type RecallConfig,
  type WorldbookConfig,
} from '../rails/index.ts'
import { registerRails } from '../rails/row.ts'

/**
 * Preset row `cyrene-runtime`: what the model sees in a Cyrene preset.
 * The two variables the persona names, the memory tools, rails 120 (称呼),
 * 125 (形态), 130 (道韵) and 150 (能力总则) mounted per `config.rails`, the
 * memory hits before each step, rail 140 (the worldbook) and its keyword hits
 * — all through the 4,000 pass (rails/row.ts) — and the section mirror that
 * carries swallowed sections (tool guidance, plan policy, other plugins'
 * sections) over as runtime contexts.
 */
export const name = 'cyrene-runtime'
export const inject = ['systemPrompt', 'tools']

export interface Config {
  rails: Rails
  /** What `{{user_nickname}}` says before the person has chosen a nickname. */
  defaultNickname: string
  sectionMirror: MirrorConfig
  recall: RecallConfig
  capability: CapabilityConfig
  worldbook: WorldbookConfig
}

export const Config: Schema<Config> = Schema.object({
  rails: railSwitchesSchema(),
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
  worldbook: Schema.object({
    recentMessages: Schema.natural().min(1).max(3).default(2).description('世界书关键词看最近几条用户消息（1–3）'),
    railChars: Schema.natural().max(RAIL_CAP).default(RAIL_CAP).description('常驻条目轨道（order 140）的上限，含数据框'),
    hitChars: Schema.natural().max(HITS_CAP).default(HITS_CAP).description('关键词命中消息的上限，含数据框'),
    hitEntries: Schema.natural().min(1).max(HITS_MAX_ENTRIES).default(HITS_MAX_ENTRIES).description('一次最多几条命中'),
  }),
  recall: Schema.object({
    enabled: Schema.boolean().default(true).description('每条消息前附上记忆命中（pre-step）'),
    maxChars: Schema.natural().default(RECALL_DEFAULTS.maxChars).description('记忆命中块的预算（字）'),
    perEntryMax: Schema.natural().default(RECALL_DEFAULTS.perEntryMax).description('单条命中上限（字）'),
    limit: Schema.natural().default(RECALL_DEFAULTS.limit).description('最多几条命中'),
  }),
})

export function apply(ctx: Context, config: Config): void {
  // Variables must always have a value: an undefined one fails the whole turn.
  // Within its cap here (frame included); the 4,000 pass (rails/row.ts) may shorten it further in the assembly.
  ctx.systemPrompt.variable('cyrene_memory', (assembly) => memoryBlock(memoryText(ctx, assembly)).render(MEMORY_CAP))
  // One line, no frame brackets: a value is not re-scanned for {{…}}, but it sits in the persona as plain text.
  ctx.systemPrompt.variable('user_nickname', (assembly) => promptSafe(nicknameOf(ctx, config.defaultNickname, assembly)) || config.defaultNickname)

  registerMemoryTools(ctx)
  registerLinkAndMarginTools(ctx)
  // Rails 120–150, the memory hits and the 4,000 pass.
  const worldbook = config.rails.worldbook ? worldbookBlocks(ctx, config.worldbook) : undefined
  registerRails(ctx, { rails: config.rails, defaultNickname: config.defaultNickname, capability: config.capability, recall: config.recall, worldbook })

  registerSectionMirror(ctx, config.sectionMirror)
}

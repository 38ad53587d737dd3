import type { StyleField, WhaleConfig } from './config.ts'
import { isRecord } from './json.ts'
import { pickByModel, tierOf } from './model-match.ts'
import { bullet, fillNames, textOf, type NameVars } from './text.ts'

// Fixed texts quoted by spec §3.1: part of the format, reproduced exactly.
const appearanceHeader = (userName: string): string =>
  '【形象设定】\n以下是' +
  userName +
  '为你设定的形象，按既定事实持有：被问到与你自身有关的问题（年龄、性别、长相、经历等）时照它回答，不必解释、不要否认，也不要反复强调或拿它加戏：\n'
const toneHeader = (userName: string): string => '【回复语气】\n以下是' + userName + '要求的措辞与节奏：只改变你怎么说话，不改变结论、证据标准与工作契约：\n'
const CONTRACTS_HEADER = '工作契约：\n'
const manualMemoryHeader = (userName: string): string => '长期记忆（' + userName + '明确要求你记住的）：\n'

function selfNameFor(config: WhaleConfig, model: string): string {
  const hit = pickByModel(config.persona.selfNameByModel, model)
  if (hit !== null) return hit
  return tierOf(model) === 'pro' ? config.persona.selfNamePro : config.persona.selfNameFlash
}

function nameVars(config: WhaleConfig, model: string): NameVars {
  return { selfName: selfNameFor(config, model), userName: config.persona.userName }
}

/**
 * Placeholders filled, then the block trimmed. Newlines stay as written here;
 * bullet() normalises CRLF for the blocks it splits into lines.
 */
function prepared(text: string, vars: NameVars): string {
  return fillNames(text, vars).trim()
}

function styleText(field: StyleField, model: string): string {
  if (!field.enabled) return ''
  return pickByModel(field.byModel, model) ?? field.text.trim()
}

/** Items that are switched on (`on !== false`) and have text that is not blank. */
function enabledTexts(items: unknown[]): string[] {
  const texts: string[] = []
  for (const item of items) {
    const text = isRecord(item) && item.on !== false ? textOf(item.text) : ''
    if (text.trim()) texts.push(text)
  }
  return texts
}

/**
 * Blocks ①–⑥ of the persona segment, in the order the spec fixes: stance,
 * character, appearance, tone, contracts, manual memory. Contracts are the
 * hard constraints and therefore always come last among the persona blocks.
 */
export function personaBlocks(config: WhaleConfig, model: string): string[] {
  if (!config.enabled || !config.persona.enabled) return []
  const p = config.persona
  const vars = nameVars(config, model)
  const blocks: string[] = []

  const stance = prepared(p.stance, vars)
  if (stance) blocks.push(stance)
  const character = prepared(p.character, vars)
  if (character) blocks.push(character)

  const appearance = prepared(styleText(p.appearance, model), vars)
  if (appearance) blocks.push(appearanceHeader(vars.userName) + bullet(appearance))
  const tone = prepared(styleText(p.tone, model), vars)
  if (tone) blocks.push(toneHeader(vars.userName) + bullet(tone))

  // one bullet per contract: a multi-line contract stays a single item
  const contracts = enabledTexts(p.contracts)
    .map((t) => prepared(t, vars))
    .filter(Boolean)
  if (contracts.length) blocks.push(CONTRACTS_HEADER + contracts.map((t) => '- ' + t).join('\n'))

  if (config.memory.enabled) {
    // manual memory entries are bulleted line by line (spec wins over the reference)
    const memories = enabledTexts(config.memory.entries)
      .map((t) => prepared(t, vars))
      .filter(Boolean)
    if (memories.length) blocks.push(manualMemoryHeader(vars.userName) + memories.map(bullet).join('\n'))
  }
  return blocks
}

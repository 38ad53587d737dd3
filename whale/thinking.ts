import type { WhaleConfig } from './config.ts'

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  en: 'English',
  ja: '日本語',
  ko: '한국어',
  ru: 'Русский',
}

/** Built-in names match exact case only; any other value is used as written (spec §3.2). */
function languageName(value: string): string {
  return Object.hasOwn(LANGUAGE_NAMES, value) ? LANGUAGE_NAMES[value]! : value
}

/**
 * The thinking-language segment (spec §3.2, fixed text). It changes the
 * language of the reasoning only, never the language of the answer.
 */
export function thinkingSegment(config: WhaleConfig): string {
  const value = config.thinkingLanguage
  if (!config.enabled || value === 'off' || value === 'false' || value === '') return ''
  const name = languageName(value)
  return [
    '# 内部思考语言',
    '- 你的思维链、逐步规划、工具调用前后的推理与自我审查，一律用' + name + '书写。',
    '- 这不改变给' + config.persona.userName + '的答复语言；代码、路径、命令、标识符照旧原样保留。',
    '- 工具返回英文内容（网页、文档、报错）时不要跟着漂移，仍旧用' + name + '思考。',
  ].join('\n')
}

/** The user's suffix with every `{{cwd}}` replaced; no trimming (spec §3.5). */
export function suffixText(config: WhaleConfig, cwd: string): string {
  if (!config.enabled || !config.persona.enabled || !config.persona.suffix) return ''
  return config.persona.suffix.split('{{cwd}}').join(cwd)
}

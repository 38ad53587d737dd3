import type { BudgetConfig } from './config.ts'
import { charCount } from './text.ts'

export type PartKey = 'persona' | 'inbox' | 'discipline' | 'suffix' | 'thinking'

const PART_LABELS: Readonly<Record<PartKey, string>> = {
  persona: '人设正文',
  inbox: '历史备忘',
  discipline: '入库纪律',
  suffix: '末尾段',
  thinking: '思考语言',
}

const PART_ORDER: readonly PartKey[] = ['persona', 'inbox', 'discipline', 'suffix', 'thinking']

export interface Measure {
  parts: { key: PartKey; label: string; chars: number }[]
  total: number
  budget: { enabled: boolean; max: number; warnInPrompt: boolean; over: boolean; noteChars: number }
}

/**
 * Sizes of the exact strings that are injected (spec §7): the caller passes
 * the rendered parts, never an estimate. Only reminds, never trims.
 */
export function measureParts(parts: Readonly<Record<PartKey, string>>, budget: BudgetConfig, noteChars: number): Measure {
  const list = PART_ORDER.map((key) => ({ key, label: PART_LABELS[key], chars: charCount(parts[key]) }))
  const total = list.reduce((sum, p) => sum + p.chars, 0)
  return {
    parts: list,
    total,
    budget: { enabled: budget.enabled, max: budget.max, warnInPrompt: budget.warnInPrompt, over: isOverBudget(total, budget), noteChars },
  }
}

export function isOverBudget(total: number, budget: BudgetConfig): boolean {
  return budget.enabled && budget.max > 0 && total > budget.max
}

/**
 * The reminder appended to the suffix segment when the total is strictly over
 * budget. Our own wording (the spec does not quote one): it states the facts
 * and asks the model to tell the person, never to edit the config itself.
 */
export function budgetNote(total: number, max: number, userName: string): string {
  return (
    '[whale-persona] 本轮人设注入共 ' +
    total +
    ' 字符，超出预算 ' +
    max +
    ' 字符。请告诉' +
    userName +
    '可以精简哪些部分（工作契约、记忆条目），由' +
    userName +
    '自己决定；不要自行修改或删减其配置。'
  )
}

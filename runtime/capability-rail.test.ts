import { expect, it } from 'vitest'
import { CAPABILITY_BUDGET, capabilityText, DEFAULT_CAPABILITY_TEXT } from './capability-rail.ts'

it('the default rail is framed as data and fits its budget', () => {
  const { text, cut } = capabilityText({ enabled: true, text: '' })
  expect(text.startsWith('【能力总则】以下是数据/操作规则，不是身份。\n')).toBe(true)
  expect(text).toContain(DEFAULT_CAPABILITY_TEXT)
  expect([...text].length).toBeLessThanOrEqual(CAPABILITY_BUDGET)
  expect(cut).toBe(0)
})

it('a longer text of the person is cut to the budget and the cut is counted', () => {
  const { text, cut } = capabilityText({ enabled: true, text: '规则'.repeat(1000) })
  expect([...text].length).toBe(CAPABILITY_BUDGET)
  expect(text.endsWith('…')).toBe(true)
  expect(cut).toBeGreaterThan(0)
})

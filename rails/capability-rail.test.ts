import { expect, it } from 'vitest'
import { endMarker, frameRule } from '../prompt/index.ts'
import { CAPABILITY_BUDGET, capabilityText, DEFAULT_CAPABILITY_TEXT } from './capability-rail.ts'
import { BUDGET, bridgeText } from '../runtime/plan-bridge.ts'

it('the default rail is framed as data, states the closing-marker rule first, ends with the marker and fits its budget', () => {
  const { text, cut } = capabilityText({ enabled: true, text: '' })
  expect(text.startsWith(`【能力总则】以下是数据/操作规则，不是身份。\n${frameRule()}\n`)).toBe(true)
  expect(text).toContain(DEFAULT_CAPABILITY_TEXT)
  expect(text.endsWith(`\n${endMarker()}`)).toBe(true)
  expect([...text].length).toBeLessThanOrEqual(CAPABILITY_BUDGET)
  expect(cut).toBe(0)
})

it('a longer text of the person is cut to the budget before the marker, and the cut is counted (issue 7 item 8)', () => {
  const body = '规则'.repeat(1000)
  const { text, cut } = capabilityText({ enabled: true, text: body })
  expect([...text].length).toBe(CAPABILITY_BUDGET)
  expect(text.endsWith(`…\n${endMarker()}`)).toBe(true)
  expect(text).toContain(frameRule())
  const shown = text.split('\n')[2]!
  expect(cut).toBe([...body].length - ([...shown].length - 1))
})

it("the plan-mode bridge keeps its marker within 300 characters, and a person's braces stay inert (issue 7 item 8)", () => {
  const long = bridgeText({ text: '计划'.repeat(400) + '{{x}}' })
  expect([...long].length).toBe(BUDGET)
  expect(long.endsWith(`…\n${endMarker()}`)).toBe(true)
  const short = bridgeText({ text: '只读 {{model}}' })
  expect(short).not.toContain('{{')
  expect(short.endsWith(`\n${endMarker()}`)).toBe(true)
})

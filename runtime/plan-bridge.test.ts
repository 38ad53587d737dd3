import { expect, it } from 'vitest'
import { charCount, endMarker } from '../prompt/index.ts'
import { BUDGET, bridgeText } from './plan-bridge.ts'

it('a cut inside an emoji keeps the emoji whole: the plan bridge counts and cuts code points (issue 8)', () => {
  // Two lengths a character apart put the cut at either half of a UTF-16 pair.
  for (const text of ['😀'.repeat(400), `a${'😀'.repeat(400)}`]) {
    const out = bridgeText({ text })
    expect(/\p{Cs}/u.test(out)).toBe(false)
    expect(charCount(out)).toBe(BUDGET)
    expect(out.endsWith(`😀…\n${endMarker()}`)).toBe(true)
  }
})

it('a bridge text that fits is framed whole, braces made inert', () => {
  const out = bridgeText({ text: '计划模式已开启 {{x}}' })
  expect(out.split('\n')[1]).toBe('计划模式已开启 {\u200d{x}\u200d}')
  expect(out.endsWith(`\n${endMarker()}`)).toBe(true)
})
